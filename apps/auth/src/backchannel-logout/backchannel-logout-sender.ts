import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { BackchannelLogoutTarget } from '../clients/registered-clients.ts';
import { postLogoutForm, RefusedLogoutTarget } from './backchannel-logout-delivery.ts';

/** Back-Channel Logout 1.0 §2.4: the event that makes a JWT a logout token. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** §2.4: long enough for a delivery and its retries, short enough to be useless when stolen. */
const LOGOUT_TOKEN_TTL_SECONDS = 120;

export interface BackchannelLogoutOptions {
  /** Signs with the current key, adding `iss` and `iat` (KeyRing.signJwt). */
  sign: (claims: Record<string, unknown>, options: { typ: string }) => Promise<string>;
  log: FastifyBaseLogger;
  timeoutMs: number;
  attempts: number;
  retryDelayMs: number;
  /** BACKCHANNEL_LOGOUT_ALLOWED_HOSTS, parsed: hosts reached although not public. */
  allowedHosts: readonly string[];
}

/** A client to tell, and the login session that ended (§2.4: `sid`), when the grant names one. */
export type LogoutNotice = BackchannelLogoutTarget & { sid?: string };

/** Why a delivery failed in a way a retry may mend: no answer, or a server-side error. */
class RetryableDelivery extends Error {}

/**
 * Sends logout tokens to clients' back-channel logout URIs (docs/oauth.md §9), in the
 * background: the user's logout or revocation never waits for a client, nor fails with one.
 * Each delivery is bounded (a timeout per attempt, a few attempts with growing pauses); what
 * still fails is logged. Deliveries in flight are abandoned when the server closes.
 */
export class BackchannelLogoutSender {
  readonly #options: BackchannelLogoutOptions;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #closing = new AbortController();

  constructor(options: BackchannelLogoutOptions) {
    this.#options = options;
  }

  /**
   * Tells each target that the user's session with it has ended. Returns at once: `targets`
   * may itself be a pending look-up, resolved in the background too.
   */
  notify(userId: number, targets: Promise<LogoutNotice[]>): void {
    const job = targets
      .then((resolved) =>
        Promise.all(resolved.map((target) => this.#deliverLogged(userId, target))),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          this.#options.log.warn({ err: error, userId }, 'could not start back-channel logout');
        },
      )
      .finally(() => this.#inFlight.delete(job));
    this.#inFlight.add(job);
  }

  /** Resolves when every delivery started so far has ended, delivered or given up. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Stops every delivery in flight and waits until they have stopped (server shutdown). */
  async close(): Promise<void> {
    this.#closing.abort();
    await Promise.allSettled([...this.#inFlight]);
  }

  async #deliverLogged(userId: number, target: LogoutNotice): Promise<void> {
    const { log } = this.#options;
    try {
      await this.#deliver(userId, target);
      log.debug({ clientId: target.clientId, userId }, 'delivered a back-channel logout token');
    } catch (error) {
      // The token is never logged: it would let a reader log the user out elsewhere.
      log.warn(
        { clientId: target.clientId, userId, reason: (error as Error).message },
        'back-channel logout failed; the client keeps its session',
      );
    }
  }

  async #deliver(userId: number, target: LogoutNotice): Promise<void> {
    const { attempts, retryDelayMs } = this.#options;
    // One token for every attempt: a client that received an attempt which timed out on our
    // side sees the same jti again and can tell it is a repeat (§2.6).
    const token = await this.#logoutToken(userId, target);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#post(target.uri, token);
        return;
      } catch (error) {
        if (!(error instanceof RetryableDelivery) || attempt >= attempts) throw error;
        if (this.#closing.signal.aborted) {
          throw new Error('the server is closing', { cause: error });
        }
      }
      await sleep(retryDelayMs * attempt, undefined, { signal: this.#closing.signal });
    }
  }

  /** §2.4: iss, aud, iat, exp, jti, sub, the session's sid when known, and the event; no nonce. */
  #logoutToken(userId: number, target: LogoutNotice): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return this.#options.sign(
      {
        aud: target.clientId,
        sub: String(userId),
        ...(target.sid === undefined ? {} : { sid: target.sid }),
        iat: now,
        exp: now + LOGOUT_TOKEN_TTL_SECONDS,
        jti: randomBytes(16).toString('base64url'),
        events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      },
      // §2.4: explicit typing keeps a logout token from passing for an ID token, and back.
      { typ: 'logout+jwt' },
    );
  }

  /** §2.5: a form-encoded POST; 200 (or any 2xx) is success, a 4xx a refusal not retried. */
  async #post(uri: string, token: string): Promise<void> {
    let status: number;
    try {
      // A registered URI is where the token goes: no redirect is followed, and no host
      // inside the server's network is reached (backchannel-logout-delivery.ts).
      status = await postLogoutForm(uri, new URLSearchParams({ logout_token: token }), {
        allowedHosts: this.#options.allowedHosts,
        signal: AbortSignal.any([
          AbortSignal.timeout(this.#options.timeoutMs),
          this.#closing.signal,
        ]),
      });
    } catch (error) {
      if (error instanceof RefusedLogoutTarget) throw error;
      throw new RetryableDelivery(`no answer: ${(error as Error).name}`, { cause: error });
    }
    if (status >= 200 && status < 300) return;
    const message = `answered ${status}`;
    if (status >= 500 || status === 408 || status === 429) {
      throw new RetryableDelivery(message);
    }
    throw new Error(message);
  }
}
