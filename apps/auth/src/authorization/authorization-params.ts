import { Type, type Static } from 'typebox';

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
  };
  return { ...read, repeated, tooLong };
}
export type ReadParams = ReturnType<typeof readParams>;
