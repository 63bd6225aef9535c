import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { backchannelLogoutTargets } from '../clients/registered-clients.ts';
import { BackchannelLogoutSender, type LogoutNotice } from './backchannel-logout-sender.ts';
import { backchannelLogoutAllowedHosts } from '../config.ts';

/**
 * OpenID Connect Back-Channel Logout 1.0 (docs/oauth.md §9): who is told, and when. A logout of
 * the REST service reaches `userLoggedOut` through the ended sessions it records.
 */
export interface BackchannelLogout {
  /**
   * The user signed out: the tokens of every grant the user holds end (codes not yet exchanged,
   * refresh families, access tokens; the remembered consents stay), and each of those clients
   * is told. Back-Channel Logout 1.0 §2.7: refresh tokens issued without offline_access to the
   * session logged out are revoked, and a grant here is not bound to one browser's session.
   * Only what was issued up to `endedAt` (ms, default now) ends: a sign-out handled late (the
   * REST service's, taken from the ended sessions) spares what the user signed in to since.
   */
  userLoggedOut(userId: number, endedAt?: number): void;
  /** The user revoked the app: that client is told. */
  appRevoked(userId: number, clientId: string): void;
  /** Resolves when every delivery started so far has ended (for tests and operators' tools). */
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    backchannelLogout: BackchannelLogout;
  }
}

/** Logout tokens one user's revocations of one client may send per window, at most. */
const APP_REVOKED_PER_WINDOW = 5;
const APP_REVOKED_WINDOW_MS = 60_000;

/**
 * Decorates the app with `backchannelLogout`. Both calls return at once; the look-up of the
 * clients and the deliveries run in the background (BackchannelLogoutSender), and stop when the
 * server closes.
 */
export const backchannelLogoutPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, keys } = app.oauth;
    const sender = new BackchannelLogoutSender({
      sign: (claims, options) => keys.signJwt(claims, options),
      log: app.log,
      timeoutMs: config.BACKCHANNEL_LOGOUT_TIMEOUT_SECONDS * 1000,
      attempts: config.BACKCHANNEL_LOGOUT_ATTEMPTS,
      retryDelayMs: config.BACKCHANNEL_LOGOUT_RETRY_SECONDS * 1000,
      allowedHosts: backchannelLogoutAllowedHosts(config),
    });
    const targetsOf = async (clientIds: () => Promise<string[]>) =>
      backchannelLogoutTargets(app.orm.em.fork(), await clientIds());
    /** A logout token per client and login session: `sid` null names the user alone. */
    const sessionTargetsOf = async (
      sessions: () => Promise<{ clientId: string; sid: string | null }[]>,
    ): Promise<LogoutNotice[]> => {
      const listed = await sessions();
      const targets = await backchannelLogoutTargets(app.orm.em.fork(), [
        ...new Set(listed.map(({ clientId }) => clientId)),
      ]);
      return listed.flatMap(({ clientId, sid }) =>
        targets
          .filter((target) => target.clientId === clientId)
          .map((target) => (sid === null ? target : { ...target, sid })),
      );
    };
    const backchannel: BackchannelLogout = {
      userLoggedOut(userId, endedAt = Date.now()) {
        sender.notify(
          userId,
          sessionTargetsOf(async () => {
            // Listed before they end: an ended grant is no longer listed. Told: the clients
            // that lost a family, not those the user signed in to only after the sign-out.
            // Each is told every login session of its families (sid, docs/oauth.md §4.4).
            const grants = await app.tokenState.families.grantsOf(userId);
            const told: { clientId: string; sid: string | null }[] = [];
            for (const { clientId } of grants) {
              const ended = await app.tokenState.endSignedOutGrant(userId, clientId, endedAt);
              for (const sid of ended?.sids ?? []) told.push({ clientId, sid });
            }
            return told;
          }),
        );
      },
      appRevoked(userId, clientId) {
        sender.notify(
          userId,
          targetsOf(async () => {
            // Each revocation needs a grant made since, so this rarely counts past one; the
            // bound is for what slips through, such as a grant made and revoked in a loop.
            const key = `oauth:bcl-app-revoked:${userId}:${clientId}`;
            const { count } = await app.kv.increment(key, APP_REVOKED_WINDOW_MS);
            if (count <= APP_REVOKED_PER_WINDOW) return [clientId];
            app.log.warn({ userId, clientId }, 'back-channel logout skipped: too many revocations');
            return [];
          }),
        );
      },
      settled: () => sender.settled(),
    };
    app.decorate('backchannelLogout', backchannel);
    // The REST service's logout (POST /api/logout) ends sessions too, but cannot sign a logout
    // token: it records them (server-kit EndedSessions), and whichever instance takes one first
    // tells the clients (docs/oauth.md §9.2).
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
      await sender.close();
    });
  },
  {
    name: 'foodshare-backchannel-logout',
    dependencies: ['foodshare-session', 'foodshare-oauth-core', 'foodshare-token-state'],
  },
);
