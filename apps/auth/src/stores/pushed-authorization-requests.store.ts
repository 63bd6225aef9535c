import { hash, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@foodshare/server-kit';
import { readRecord, RecordFormats, writeRecord } from '@foodshare/server-kit';

/** RFC 9126 2.2: the prefix of every request_uri this server hands out. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/**
 * RFC 9126 2.2 suggests a short lifetime: long enough for the browser's redirect to
 * /oauth/authorize, too short to be worth stealing.
 */
export const PUSHED_REQUEST_TTL_SECONDS = 60;

/** A pushed authorization request: its client and its parameters, validated when pushed. */
export interface PushedAuthorizationRequest {
  clientId: string;
  params: Record<string, string>;
}

// Stored under a hash like codes: a leaked Redis dump names no usable request_uri.
const pushedKey = (requestUri: string) => `oauth:par:${hash('sha256', requestUri, 'base64url')}`;

/**
 * Pushed authorization requests (RFC 9126), between /oauth/par and /oauth/authorize. Each
 * request_uri is good once (RFC 9126 4 recommends it): the authorization endpoint takes it, and
 * from then on the request lives on as an ordinary parked authorization request.
 */
export class PushedAuthorizationRequestStore {
  readonly #store: KeyValueStore;

  constructor(store: KeyValueStore) {
    this.#store = store;
  }

  async push(
    request: PushedAuthorizationRequest,
  ): Promise<{ requestUri: string; expiresIn: number }> {
    // 256 bits: the request_uri alone names the request (RFC 9126 7.1: not guessable).
    const requestUri = `${REQUEST_URI_PREFIX}${randomBytes(32).toString('base64url')}`;
    await this.#store.set(
      pushedKey(requestUri),
      writeRecord(RecordFormats.pushedRequest, request),
      PUSHED_REQUEST_TTL_SECONDS * 1000,
    );
    return { requestUri, expiresIn: PUSHED_REQUEST_TTL_SECONDS };
  }

  /** The request, once: of concurrent uses exactly one gets it; null when unknown or expired. */
  async take(requestUri: string): Promise<PushedAuthorizationRequest | null> {
    if (!requestUri.startsWith(REQUEST_URI_PREFIX)) return null;
    const raw = await this.#store.take(pushedKey(requestUri));
    return raw === null
      ? null
      : readRecord<PushedAuthorizationRequest>(RecordFormats.pushedRequest, raw);
  }
}
