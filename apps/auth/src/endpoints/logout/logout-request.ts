import type { AuthServices } from '../../auth-services.ts';
import { isRegisteredRedirectUri, type EntityManager } from '@foodshare/domain';
import { decodeProtectedHeader } from 'jose';
import { findActiveClient, type RegisteredClient } from '../../clients/registered-clients.ts';
import { InvalidTokenError } from '../../keys/key-ring.ts';
import { present } from './logout-params.ts';

/** Why a logout request is refused; the page says so and never redirects. */
export type LogoutRefusal =
  | 'invalid_id_token_hint'
  | 'client_id_mismatch'
  | 'unknown_client'
  | 'client_required'
  | 'unregistered_post_logout_redirect_uri';

/** A logout request whose every given parameter checked out. */
export interface CheckedLogout {
  ok: true;
  /** From client_id, or else the hint's audience; null when neither names one. */
  client: RegisteredClient | null;
  /** A URI the client registered, exactly; null: end on our own page. */
  redirectUri: string | null;
  /** Passed back with the redirect only. */
  state: string | null;
  /** The subject of a valid hint; null without one. */
  hintSubject: string | null;
}

export type LogoutCheck = CheckedLogout | { ok: false; refusal: LogoutRefusal };

export interface LogoutRequestInput {
  idTokenHint?: string | undefined;
  clientId?: string | undefined;
  postLogoutRedirectUri?: string | undefined;
  state?: string | undefined;
}

const refuse = (refusal: LogoutRefusal): LogoutCheck => ({ ok: false, refusal });

/** The hint's single audience: our ID tokens name one client (azp names it too). */
function hintAudience(claims: Record<string, unknown>): string | null {
  const { aud } = claims;
  if (typeof aud === 'string') return aud;
  if (Array.isArray(aud) && aud.length === 1 && typeof aud[0] === 'string') return aud[0];
  return null;
}

/**
 * Whether a token we signed is one of our ID tokens. The same keys sign access tokens (header
 * `typ` at+jwt, RFC 9068) and logout tokens (logout+jwt, with `events`), which must not pass
 * for a hint: the hint lets the logout skip asking the user, and an access token reaches
 * resource servers, a logout token the client's back channel. ID tokens carry no `typ` (JWT
 * allowed), no `events`, no `client_id` nor `scope`.
 */
function isIdToken(token: string, claims: Record<string, unknown>): boolean {
  const { typ } = decodeProtectedHeader(token);
  if (typ !== undefined && !['jwt', 'application/jwt'].includes(typ.toLowerCase())) return false;
  return !('events' in claims) && !('client_id' in claims) && !('scope' in claims);
}

/**
 * RP-Initiated Logout 1.0 §2-§3.
 * - The hint must be an ID token we signed for our issuer. An expired one is fine (§2); an
 *   access or logout token is not an ID token.
 * - A client_id given with it must be its audience (§2).
 * - A post_logout_redirect_uri must be one the client registered (§3.1), so a client must be
 *   named. It is compared as redirect URIs are: a native app's loopback port may differ
 *   (docs/oauth.md §7.2).
 * Anything else is refused outright, without a redirect. The page must not lead to an address
 * nobody vouched for (§4, as RFC 6749 4.1.2.1 says for the authorization endpoint).
 */
export async function checkLogoutRequest(
  services: AuthServices,
  em: EntityManager,
  input: LogoutRequestInput,
): Promise<LogoutCheck> {
  let hintSubject: string | null = null;
  let audience: string | null = null;
  const hint = present(input.idTokenHint);
  if (hint !== undefined) {
    try {
      const claims = await services.keys.verifyJwt(hint, { acceptExpired: true });
      audience = hintAudience(claims);
      if (!isIdToken(hint, claims) || typeof claims.sub !== 'string' || audience === null) {
        return refuse('invalid_id_token_hint');
      }
      hintSubject = claims.sub;
    } catch (error) {
      if (error instanceof InvalidTokenError) return refuse('invalid_id_token_hint');
      throw error;
    }
  }

  const clientId = present(input.clientId);
  if (clientId !== undefined && audience !== null && clientId !== audience) {
    return refuse('client_id_mismatch');
  }
  const namedClient = clientId ?? audience;
  const client = namedClient === null ? null : await findActiveClient(em, namedClient);
  // A hint of a client deleted since may still end the session; a client_id must be known.
  if (clientId !== undefined && client === null) return refuse('unknown_client');

  const redirectUri = present(input.postLogoutRedirectUri) ?? null;
  if (redirectUri !== null) {
    if (client === null) return refuse(namedClient === null ? 'client_required' : 'unknown_client');
    if (!isRegisteredRedirectUri(client.postLogoutRedirectUris, redirectUri)) {
      return refuse('unregistered_post_logout_redirect_uri');
    }
  }
  return {
    ok: true,
    client,
    redirectUri,
    state: present(input.state) ?? null,
    hintSubject,
  };
}
