import { addressBucket, type KeyValueStore } from '@foodshare/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthServices } from '../auth-services.ts';
import { sendTooManyRequestsPage } from '../pages/error.page.ts';
import { pickLocale } from '../pages/locale.ts';

/**
 * An onRequest hook of pages: `limit` requests per client address (IPv6: per /64) and window,
 * counted under `name`; past it a 429 page with Retry-After, nothing else done.
 */
export function limitPagePerAddress(
  kv: KeyValueStore,
  { name, limit, windowMs }: { name: string; limit: number; windowMs: number },
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const wait = await spendAttempt(kv, `oauth:${name}:${addressBucket(request.ip)}`, {
      limit,
      windowMs,
    });
    if (wait === null) return;
    return sendTooManyRequestsPage(reply, pickLocale(request.headers['accept-language']), wait);
  };
}

/**
 * Counts one attempt under `key` in fixed windows: null while within `limit`, else the seconds
 * until the window ends (for `Retry-After`).
 */
export async function spendAttempt(
  kv: KeyValueStore,
  key: string,
  { limit, windowMs }: { limit: number; windowMs: number },
): Promise<number | null> {
  const { count, ttlMs } = await kv.increment(key, windowMs);
  return count <= limit ? null : Math.max(1, Math.ceil(ttlMs / 1000));
}

/**
 * onRequest hook of /oauth/authorize and /login: one budget per client address (IPv6: per
 * /64) and minute over both, as each anonymous request can park an authorization request or
 * check a password. A sign-in takes a handful of requests, so the limit stops only floods.
 */
export function limitInteractionsPerAddress({ config, kv }: Pick<AuthServices, 'config' | 'kv'>) {
  return limitPagePerAddress(kv, {
    name: 'interaction-rate',
    limit: config.INTERACTION_REQUESTS_PER_IP_PER_MINUTE,
    windowMs: 60_000,
  });
}
