import { WellKnownUnit } from '../enums.ts';

/** Every demo user logs in with this password. */
export const DEMO_PASSWORD = 'demo-password';

/** The secret of the `demo-confidential` client. Fixed secrets exist only in demo data. */
export const DEMO_CLIENT_SECRET = 'demo-secret';

export const DEMO_REDIRECT_URI = 'http://localhost:9999/callback';

export const DemoUserEmail = {
  /** Orga (4), admin of OAuth client administration (6704) and IT support (387). */
  orga: 'orga@example.org',
  /** Store manager (2) in Musterstadt, manages the demo store, admin of the demo working group. */
  alice: 'alice@example.org',
  /** Foodsaver (1), member of Beispieldorf only; applies to alice's store. */
  bob: 'bob@example.org',
  /** Foodsharer (0), not verified, Musterstadt; applied to alice's working group, passed quiz 1. */
  carla: 'carla@example.org',
  /** Ambassador (3) of Musterstadt, so she holds its moderation, report and stores duties. */
  dana: 'dana@example.org',
  /** Store manager (2), member of the store-chain group (332), key account manager of the demo chain. */
  kim: 'kim@example.org',
} as const;
export type DemoUserName = keyof typeof DemoUserEmail;

/** Units with fixed ids: the well-known ones of the reference platform and the demo region tree. */
export const DemoRegionId = {
  ...WellKnownUnit,
  Germany: 1,
  FederalState: 2,
  Musterstadt: 3,
  Beispieldorf: 4,
  /** The working group of Musterstadt that alice administers. */
  MusterstadtWorkGroup: 5,
} as const;

export const DemoClientId = {
  public: 'demo-public',
  confidential: 'demo-confidential',
  /** Like demo-public, for members of Musterstadt only. */
  regional: 'demo-regional',
} as const;

/** Ids of the demo rows that tests and examples point at. */
export interface DemoDataIds {
  users: Record<DemoUserName, number>;
  /** alice's store, part of the demo chain, with a log and a pending applicant (bob). */
  storeId: number;
  /** A store in Beispieldorf whose team bob belongs to. */
  otherStoreId: number;
  chainId: number;
  /** alice, bob and carla. */
  conversationId: number;
  /** A thread of the Musterstadt forum with one hidden post. */
  forumThreadId: number;
  hiddenPostId: number;
  visiblePostId: number;
  /** alice's avatar. */
  avatarUploadId: string;
}
