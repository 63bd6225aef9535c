import type { DEVICE_CODE_GRANT_TYPE } from '@foodshare/domain';
import type { FastifyRequest } from 'fastify';
import type { AuthServices } from '../../../auth-services.ts';
import type { AuthenticatedClient } from '../../../clients/client-authentication.ts';
import type { TokenResponse } from '../issue-tokens.ts';

/** The form fields of a token request this server reads (others are ignored, RFC 6749 3.2). */
export interface TokenRequestParams {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  /** RFC 8628 3.4. */
  device_code?: string;
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
  | 'clientRows'
  | 'codes'
  | 'families'
  | 'denyList'
  | 'refreshTokens'
  | 'dpop'
  | 'devices'
>;

/** One token request, after its client authenticated and sent what its grant requires. */
export interface GrantRequest<Required extends keyof TokenRequestParams = never, Ahead = unknown> {
  request: FastifyRequest;
  client: AuthenticatedClient;
  params: TokenRequestParams & { [name in Required]: string };
  /** When the request arrived (ms): tells a concurrent refresh from a replay. */
  requestStartedAt: number;
  /** The thumbprint of the key of the request's DPoP proof (RFC 9449), or null without one. */
  dpopJkt: string | null;
  /** The grant's `readAhead`, sent with the client's authentication; null when it has none. */
  ahead: Promise<Ahead> | null;
}

/**
 * One grant type of the token endpoint (RFC 6749 4.1.3, 6). The route checks that each of its
 * `requiredParams` is sent and not empty, in their order, before it calls `handle`.
 */
export interface Grant<
  Required extends keyof TokenRequestParams = keyof TokenRequestParams,
  Ahead = unknown,
> {
  grantType: 'authorization_code' | 'refresh_token' | typeof DEVICE_CODE_GRANT_TYPE;
  requiredParams: readonly Required[];
  /** The client budget its requests spend (`tokenBudget`); the token requests' unless named. */
  budget?: 'device';
  /**
   * The grant's first reads, started in the round trip that ends the client's authentication
   * (sent before anything awaits), when every required parameter is there; `clientId` has
   * authenticated, and `handle` uses the answer only if the failure guard lets the request on.
   */
  readAhead?(
    services: TokenServices,
    params: TokenRequestParams & { [name in Required]: string },
    clientId: string,
  ): Promise<Ahead>;
  handle(
    services: TokenServices,
    grantRequest: GrantRequest<Required, Ahead>,
  ): Promise<TokenResponse>;
}
