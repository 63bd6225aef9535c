import type { FastifyRequest } from 'fastify';
import type { AuthServices } from '../../../auth-services.ts';
import { invalidRequest } from '../../../errors/oauth-errors.ts';
import type { AuthenticatedClient } from '../../../clients/client-authentication.ts';
import type { TokenResponse } from '../issue-tokens.ts';

/** The form fields of a token request this server reads (others are ignored, RFC 6749 3.2). */
export interface TokenRequestParams {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
}

/** What the token endpoint and its grants use. */
export type TokenServices = Pick<
  AuthServices,
  | 'config'
  | 'issuer'
  | 'secrets'
  | 'keys'
  | 'metrics'
  | 'audit'
  | 'kv'
  | 'codes'
  | 'families'
  | 'denyList'
  | 'refreshTokens'
>;

/** One token request, after its client authenticated. */
export interface GrantRequest {
  request: FastifyRequest;
  client: AuthenticatedClient;
  params: TokenRequestParams;
  /** When the request arrived (ms): tells a concurrent refresh from a replay. */
  requestStartedAt: number;
}

/** One grant type of the token endpoint (RFC 6749 4.1.3, 6). */
export interface Grant {
  grantType: 'authorization_code' | 'refresh_token';
  handle(services: TokenServices, grantRequest: GrantRequest): Promise<TokenResponse>;
}

export function requiredParam(params: TokenRequestParams, name: keyof TokenRequestParams): string {
  const value = params[name];
  if (value === undefined || value === '') throw invalidRequest(`${name} is required`);
  return value;
}

/**
 * When a request arrived, in whole epoch milliseconds, from the wall clock now and the time it
 * has been under way (Fastify's `reply.elapsedTime`, fractional). Compared with a rotation's
 * `rotatedAt` (a whole `Date.now()`): rounded up, so that a rotation completed before the request
 * arrived is never dated after it. Rounded down or left fractional, a reuse arriving in the same
 * millisecond as the rotation's end could look concurrent and escape the family's revocation.
 */
export function arrivedAtMs(nowMs: number, elapsedMs: number): number {
  return Math.ceil(nowMs - elapsedMs);
}
