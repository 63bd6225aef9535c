import { isRegisteredRedirectUri, OAUTH_SCOPES } from '@foodshare/domain';
import {
  mayHoldScope,
  OFFLINE_ACCESS,
  type RegisteredClient,
} from '../clients/registered-clients.ts';
import { invalidRequest, invalidScope, unsupportedResponseType } from '../errors/oauth-errors.ts';
import type { AuthorizationRequest, Prompt } from '../stores/authorization-requests.store.ts';
import { PARAM_MAX_LENGTHS, type ReadParams } from './authorization-params.ts';

/** RFC 9126 6: a client registered to push its requests sent one directly. */
export const PUSHED_REQUEST_REQUIRED =
  'This client must push its authorization requests to /oauth/par';

/** The message of docs/spec.md §7.2 when a public client sends no PKCE challenge. */
export const CODE_CHALLENGE_REQUIRED = 'Code challenge required';

/** RFC 7636 4.2: BASE64URL(SHA-256(verifier)) is 43 characters; the grammar allows up to 128. */
const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;
const PROMPTS: readonly Prompt[] = ['none', 'login', 'consent'];
/** max_age beyond ~68 years means "no limit"; a bound keeps the arithmetic exact. */
const MAX_MAX_AGE = 2_147_483_647;

/**
 * RFC 6749 4.1.2.1: only when the client is known and the redirect URI is one it registered may
 * errors be redirected to it. Byte-for-byte comparison: no normalising of case, trailing slashes
 * or default ports (docs/spec.md §5.2 rule 5, RFC 9700 2.1), except any port on a loopback host
 * (RFC 8252 7.3, docs/oauth.md §2.2). The URI as sent is the target, so a native app's errors
 * and its code reach the port it listens on.
 */
export function redirectTarget(client: RegisteredClient | null, params: ReadParams) {
  if (!client || params.repeated.includes('client_id') || params.repeated.includes('redirect_uri'))
    return null;
  const { redirectUri } = params;
  if (redirectUri === undefined || !isRegisteredRedirectUri(client.redirectUris, redirectUri)) {
    return null;
  }
  return redirectUri;
}

/**
 * Checks everything but the client and redirect URI, which `redirectTarget` checked; throws the
 * OAuthError to redirect with (or, at /oauth/par, to answer with). The order follows the
 * request's reading: response type, scope, PKCE, then the OIDC interaction parameters. `pushed`:
 * the parameters came through /oauth/par (RFC 9126), where the client authenticated.
 */
export function validateAuthorizationRequest(
  client: RegisteredClient,
  redirectUri: string,
  params: ReadParams,
  { pushed }: { pushed: boolean },
): AuthorizationRequest {
  // docs/oauth.md §8.3: checked first, so that such a client's direct requests are judged on
  // nothing else.
  if (client.requirePushedAuthorizationRequests && !pushed) {
    throw invalidRequest(PUSHED_REQUEST_REQUIRED);
  }
  const [repeated] = params.repeated;
  if (repeated !== undefined) throw invalidRequest(`Parameter ${repeated} must not be repeated`);
  const [tooLong] = params.tooLong;
  if (tooLong !== undefined) {
    const max = (PARAM_MAX_LENGTHS as Record<string, number>)[tooLong] ?? 2000;
    const name = /^[a-z_]{1,40}$/.test(tooLong) ? tooLong : 'A parameter';
    throw invalidRequest(`${name} must not exceed ${max} characters`);
  }

  if (params.responseType === undefined) throw invalidRequest('response_type is required');
  if (params.responseType !== 'code') throw unsupportedResponseType();
  if (params.responseMode !== undefined && params.responseMode !== 'query') {
    throw invalidRequest('Only response_mode=query is supported');
  }
  // OIDC Core 6: request objects are not supported; ignoring one could drop what it demands. A
  // request_uri of /oauth/par never gets here: the authorization endpoint replaced it with the
  // pushed parameters, and a pushed request may not carry one (RFC 9126 2.1).
  if (params.request !== undefined || params.requestUri !== undefined) {
    throw invalidRequest('Request objects (request, request_uri) are not supported');
  }

  const scopes = checkScopes(client, params.scope);
  const codeChallenge = checkPkce(client, params);
  const prompt = checkPrompt(params.prompt);
  const maxAge = checkMaxAge(params.maxAge);

  return {
    clientId: client.clientId,
    redirectUri,
    state: params.state ?? null,
    scopes,
    codeChallenge,
    nonce: params.nonce ?? null,
    prompt,
    maxAge,
  };
}

/**
 * RFC 6749 3.3: space-delimited, case-sensitive; a client gets only scopes it registered.
 * offline_access (docs/oauth.md §3.8) is understood from every client and kept for those
 * registered for the refresh_token grant; from others it is dropped, not refused: OIDC Core 11
 * has the server ignore an offline_access it does not grant.
 */
function checkScopes(client: RegisteredClient, scope: string | undefined): string[] {
  const scopes = [...new Set((scope ?? '').split(' ').filter((s) => s !== ''))];
  if (!scopes.includes('openid')) throw invalidScope('The openid scope is required');
  const known = [...OAUTH_SCOPES, OFFLINE_ACCESS];
  if (scopes.some((s) => !known.includes(s))) {
    throw invalidScope(`Unknown scope requested; scopes are ${known.join(', ')}`);
  }
  const unregistered = scopes.filter((s) => s !== OFFLINE_ACCESS && !mayHoldScope(client, s));
  if (unregistered.length > 0) {
    throw invalidScope(`The client is not registered for scope ${unregistered.join(', ')}`);
  }
  return scopes.filter((s) => mayHoldScope(client, s));
}

/**
 * RFC 7636 and RFC 9700 2.1.1: S256 only. A challenge without a method means `plain`
 * (RFC 7636 4.3), which is refused like an explicit `plain`.
 */
function checkPkce(client: RegisteredClient, params: ReadParams): string | null {
  const { codeChallenge, codeChallengeMethod } = params;
  if (codeChallenge === undefined) {
    if (!client.confidential) throw invalidRequest(CODE_CHALLENGE_REQUIRED);
    if (codeChallengeMethod !== undefined) {
      throw invalidRequest('code_challenge_method was sent without code_challenge');
    }
    return null;
  }
  if (codeChallengeMethod !== 'S256') {
    throw invalidRequest('code_challenge_method must be S256');
  }
  if (!CODE_CHALLENGE_PATTERN.test(codeChallenge)) {
    throw invalidRequest('code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  }
  return codeChallenge;
}

/** OIDC Core 3.1.2.1: `none` stands alone. */
function checkPrompt(prompt: string | undefined): Prompt[] {
  const values = [...new Set((prompt ?? '').split(' ').filter((p) => p !== ''))];
  if (values.some((p) => !(PROMPTS as readonly string[]).includes(p))) {
    throw invalidRequest(`Unsupported prompt value; supported are ${PROMPTS.join(', ')}`);
  }
  if (values.includes('none') && values.length > 1) {
    throw invalidRequest('prompt=none must not be combined with other values');
  }
  return values as Prompt[];
}

function checkMaxAge(maxAge: string | undefined): number | null {
  if (maxAge === undefined) return null;
  if (!/^\d{1,10}$/.test(maxAge) || Number(maxAge) > MAX_MAX_AGE) {
    throw invalidRequest('max_age must be a non-negative integer number of seconds');
  }
  return Number(maxAge);
}
