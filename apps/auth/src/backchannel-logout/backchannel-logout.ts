import type { MikroORM } from '@foodshare/domain';
import type { KeyValueStore } from '@foodshare/server-kit';
import type { RefreshFamilyStore } from '@foodshare/server-kit/oauth-grants';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { backchannelLogoutTargets } from '../clients/registered-clients.ts';
import { backchannelLogoutAllowedHosts, type AuthConfig } from '../config.ts';
import type { KeyRing } from '../keys/key-ring.ts';
import type { GrantRevocation } from '../tokens/grant-revocation.ts';
import { BackchannelLogoutSender, type LogoutNotice } from './backchannel-logout-sender.ts';

/** Logout tokens one user's revocations of one client may send per window, at most. */
const APP_REVOKED_PER_WINDOW = 5;
const APP_REVOKED_WINDOW_MS = 60_000;

/**
 * OpenID Connect Back-Channel Logout 1.0 (docs/oauth.md §9): who is told, and when. Both calls
 * return at once; the look-up of the clients and the deliveries run in the background
 * (BackchannelLogoutSender), and stop when the server closes (`close`).
 */
export class BackchannelLogout {
  readonly #orm: MikroORM;
  readonly #kv: KeyValueStore;
  readonly #log: FastifyBaseLogger;
  readonly #families: RefreshFamilyStore;
  readonly #grantRevocation: GrantRevocation;
  readonly #sender: BackchannelLogoutSender;

  constructor(options: {
    config: AuthConfig;
    keys: KeyRing;
    orm: MikroORM;
    kv: KeyValueStore;
    log: FastifyBaseLogger;
    families: RefreshFamilyStore;
    grantRevocation: GrantRevocation;
  }) {
    const { config, keys } = options;
    this.#orm = options.orm;
    this.#kv = options.kv;
    this.#log = options.log;
    this.#families = options.families;
    this.#grantRevocation = options.grantRevocation;
    this.#sender = new BackchannelLogoutSender({
      sign: (claims, signOptions) => keys.signJwt(claims, signOptions),
      log: options.log,
      timeoutMs: config.BACKCHANNEL_LOGOUT_TIMEOUT_SECONDS * 1000,
      attempts: config.BACKCHANNEL_LOGOUT_ATTEMPTS,
      retryDelayMs: config.BACKCHANNEL_LOGOUT_RETRY_SECONDS * 1000,
      allowedHosts: backchannelLogoutAllowedHosts(config),
    });
  }

  /**
   * The user signed out: the tokens of every grant the user holds end (codes not yet exchanged,
   * refresh families, access tokens; the remembered consents stay), and each of those clients
   * is told. Back-Channel Logout 1.0 §2.7: refresh tokens issued without offline_access to the
   * session logged out are revoked, and a grant here is not bound to one browser's session.
   * Only what was issued up to `endedAt` (ms, default now) ends: a sign-out handled late (the
   * REST service's, taken from the ended sessions) spares what the user signed in to since.
   */
  userLoggedOut(userId: number, endedAt = Date.now()): void {
    this.#sender.notify(
      userId,
      this.#sessionTargetsOf(async () => {
        // Listed before they end: an ended grant is no longer listed. Told: the clients that
        // lost a family, not those the user signed in to only after the sign-out. Each is told
        // every login session of its families (sid, docs/oauth.md §4.4).
        const grants = await this.#families.grantsOf(userId);
        const told: { clientId: string; sid: string | null }[] = [];
        for (const { clientId } of grants) {
          const ended = await this.#grantRevocation.endSignedOutGrant(userId, clientId, endedAt);
          for (const sid of ended?.sids ?? []) told.push({ clientId, sid });
        }
        return told;
      }),
    );
  }

  /** The user revoked the app: that client is told. */
  appRevoked(userId: number, clientId: string): void {
    this.#sender.notify(
      userId,
      (async () => {
        // Each revocation needs a grant made since, so this rarely counts past one; the
        // bound is for what slips through, such as a grant made and revoked in a loop.
        const key = `oauth:bcl-app-revoked:${userId}:${clientId}`;
        const { count } = await this.#kv.increment(key, APP_REVOKED_WINDOW_MS);
        if (count > APP_REVOKED_PER_WINDOW) {
          this.#log.warn({ userId, clientId }, 'back-channel logout skipped: too many revocations');
          return [];
        }
        return backchannelLogoutTargets(this.#orm.em.fork(), [clientId]);
      })(),
    );
  }

  /** Resolves when every delivery started so far has ended (for tests and operators' tools). */
  settled(): Promise<void> {
    return this.#sender.settled();
  }

  close(): Promise<void> {
    return this.#sender.close();
  }

  /** A logout token per client and login session: `sid` null names the user alone. */
  async #sessionTargetsOf(
    sessions: () => Promise<{ clientId: string; sid: string | null }[]>,
  ): Promise<LogoutNotice[]> {
    const listed = await sessions();
    const targets = await backchannelLogoutTargets(this.#orm.em.fork(), [
      ...new Set(listed.map(({ clientId }) => clientId)),
    ]);
    return listed.flatMap(({ clientId, sid }) =>
      targets
        .filter((target) => target.clientId === clientId)
        .map((target) => (sid === null ? target : { ...target, sid })),
    );
  }
}

/**
 * The REST service's logout (POST /api/logout) ends sessions too, but cannot sign a logout
 * token: it records them (server-kit EndedSessions), and whichever instance takes one first
 * tells the clients (docs/oauth.md §9.2). Polls while the app runs; stops the deliveries at close.
 */
export function takeEndedSessionsWhileRunning(
  app: FastifyInstance,
  backchannel: BackchannelLogout,
  config: AuthConfig,
): void {
  let closed = false;
  let polling: Promise<void> | null = null;
  const takeEndedSessions = async () => {
    try {
      for (const { userId, endedAt } of await app.endedSessions.take()) {
        backchannel.userLoggedOut(userId, endedAt);
      }
    } catch (error) {
      if (!closed) app.log.warn({ err: error }, 'could not read the sessions the API ended');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      polling ??= takeEndedSessions().finally(() => {
        polling = null;
      });
    }, config.BACKCHANNEL_LOGOUT_POLL_SECONDS * 1000);
    // Never what keeps the process alive.
    timer.unref();
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
    await polling;
    await backchannel.close();
  });
}
