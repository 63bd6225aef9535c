import { isRegisteredRedirectUri, OAUTH_SCOPES } from '@foodshare/domain';
import {
  mayHoldScope,
  OFFLINE_ACCESS,
  type RegisteredClient,
} from '../clients/registered-clients.ts';
import { invalidRequest, invalidScope, unsupportedResponseType } from '../errors/oauth-errors.ts';
import type { AuthorizationRequest, Prompt } from '../stores/authorization-requests.store.ts';
import { Type, type Static } from 'typebox';

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
  // RFC 9449 10: a JWK SHA-256 thumbprint (RFC 7638), base64url without padding.
  if (params.dpopJkt !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(params.dpopJkt)) {
    throw invalidRequest('dpop_jkt must be the SHA-256 thumbprint of a JWK');
  }

  return {
    clientId: client.clientId,
    redirectUri,
    state: params.state ?? null,
    scopes,
    codeChallenge,
    nonce: params.nonce ?? null,
    prompt,
    maxAge,
    ...(params.dpopJkt === undefined ? {} : { dpopJkt: params.dpopJkt }),
  };
}

/**
 * RFC 6749 3.3: space-delimited, case-sensitive; a client gets only scopes it registered.
 * offline_access (docs/oauth.md §3.8) is understood from every client and kept for those
 * registered for the refresh_token grant; from others it is dropped, not refused: OIDC Core 11
 * has the server ignore an offline_access it does not grant.
 */
export function checkScopes(client: RegisteredClient, scope: string | undefined): string[] {
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

/**
 * The parameters of an authorization request, by query (GET) or form body (POST, OIDC Core
 * 3.1.2.1). Any name is accepted, because unknown parameters are ignored (RFC 6749 3.1); a
 * repeated one arrives as an array and is refused where it matters.
 */
export const AuthorizationParamsSchema = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Array(Type.String())]),
);
export type AuthorizationParams = Static<typeof AuthorizationParamsSchema>;

/** A parameter's single value; undefined when absent, 'repeated' when sent more than once. */
export function singleParam(
  params: AuthorizationParams,
  name: string,
): string | undefined | { repeated: true } {
  const value = params[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 1 ? value[0] : { repeated: true };
  return value;
}

/**
 * The longest value each parameter may have. The request is kept while the user logs in and
 * consents, and `state` and `nonce` travel on into the code and tokens, so an anonymous
 * request must not be able to park a large value. Generous for any real client: client ids
 * are at most 100 characters and our scopes fit in 100.
 */
export const PARAM_MAX_LENGTHS = {
  client_id: 100,
  redirect_uri: 2000,
  response_type: 100,
  response_mode: 100,
  scope: 1000,
  state: 1024,
  // Held to 43..128 by its own check, which names the grammar.
  code_challenge: 1000,
  code_challenge_method: 100,
  nonce: 512,
  prompt: 100,
  max_age: 20,
  request: 100_000,
  request_uri: 2000,
  login_hint: 320,
  ui_locales: 200,
  claims_locales: 200,
  id_token_hint: 8000,
  acr_values: 1000,
  display: 100,
  dpop_jkt: 100,
} as const;

type ParamName = keyof typeof PARAM_MAX_LENGTHS;

/** The parameters, known or not, whose value is longer than allowed (an unknown one: 2000). */
export function tooLongParams(params: AuthorizationParams): string[] {
  return Object.entries(params)
    .filter(([name, value]) => {
      const max = (PARAM_MAX_LENGTHS as Record<string, number>)[name] ?? 2000;
      return (Array.isArray(value) ? value : [value]).some((each) => each.length > max);
    })
    .map(([name]) => name);
}

/**
 * RFC 6749 3.1: parameters sent without a value are treated as omitted, and none may be sent
 * more than once (a repeated one is reported by name). A value longer than allowed is
 * reported in `tooLong` and read as absent, so it is never stored nor echoed.
 */
export function readParams(params: AuthorizationParams) {
  const repeated: string[] = [];
  const tooLong = tooLongParams(params);
  const get = (name: ParamName): string | undefined => {
    const value = singleParam(params, name);
    if (typeof value === 'object') {
      repeated.push(name);
      return undefined;
    }
    return value === '' || tooLong.includes(name) ? undefined : value;
  };
  const read = {
    clientId: get('client_id'),
    redirectUri: get('redirect_uri'),
    responseType: get('response_type'),
    responseMode: get('response_mode'),
    scope: get('scope'),
    state: get('state'),
    codeChallenge: get('code_challenge'),
    codeChallengeMethod: get('code_challenge_method'),
    nonce: get('nonce'),
    prompt: get('prompt'),
    maxAge: get('max_age'),
    request: get('request'),
    requestUri: get('request_uri'),
    dpopJkt: get('dpop_jkt'),
  };
  return { ...read, repeated, tooLong };
}
export type ReadParams = ReturnType<typeof readParams>;
