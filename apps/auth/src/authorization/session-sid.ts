import { hash } from 'node:crypto';
import { sessionFingerprint } from '../stores/authorization-requests.store.ts';

/**
 * The `sid` of OpenID Connect Front- and Back-Channel Logout (docs/oauth.md §4.4): names the
 * user's login session at this server in ID tokens and logout tokens. Derived from the session's
 * key in the store (itself the SHA-256 of the cookie) under a label of its own: the same for every
 * token of the session, without storing anything, and neither the cookie nor the store key can
 * be worked back from it.
 */
export function sessionSid(sessionId: string): string {
  return hash('sha256', `oidc-sid:${sessionFingerprint(sessionId)}`, 'base64url');
}
