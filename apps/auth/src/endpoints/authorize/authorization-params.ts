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
 * RFC 6749 3.1: parameters sent without a value are treated as omitted, and none may be sent
 * more than once (a repeated one is reported by name).
 */
export function readParams(params: AuthorizationParams) {
  const repeated: string[] = [];
  const get = (name: string): string | undefined => {
    const value = singleParam(params, name);
    if (typeof value === 'object') {
      repeated.push(name);
      return undefined;
    }
    return value === '' ? undefined : value;
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
  return { ...read, repeated };
}
export type ReadParams = ReturnType<typeof readParams>;
