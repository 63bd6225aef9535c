import { NUL_CHARACTER_KEYWORD } from '@foodshare/server-kit';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { invalidRequest, OAuthErrorBodySchema, type OAuthError } from '../errors/oauth-errors.ts';
import type { AuthenticatedClient } from './client-authentication.ts';
import { authenticateClientWithinLimits, type ClientLimitServices } from './client-rate-limits.ts';

/**
 * The error answers of the endpoints a client calls with its credentials (token, revocation,
 * introspection, pushed authorization requests): a bad request, failed authentication, an
 * exhausted budget, and the `server_error` that hides an internal failure.
 */
export const clientEndpointErrorResponses = {
  400: OAuthErrorBodySchema,
  401: OAuthErrorBodySchema,
  429: OAuthErrorBodySchema,
  500: OAuthErrorBodySchema,
};

/**
 * Their answers name tokens or requests, which a cache would keep beyond a revocation (RFC 6749
 * 5.1, RFC 9126 2.2); `pragma` for HTTP/1.0 caches.
 */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** RFC 6749 3.2 / RFC 7009 2.1: parameters are sent as application/x-www-form-urlencoded. */
export function assertFormEncoded(request: FastifyRequest): void {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw invalidRequest('The request body must be application/x-www-form-urlencoded');
  }
}

/**
 * The `invalid_request` for a form that failed its schema (the handler runs with
 * `attachValidation`), described by what failed. The form fields are optional strings, so a
 * type error is a parameter sent twice, which arrives as an array (RFC 6749 3.2: at most once);
 * the shared validator refuses U+0000 anywhere (server-kit validation.ts). The parameter is named
 * only when its name is plain: error_description allows few characters (RFC 6749 5.2).
 */
export function invalidForm(error: { validation?: unknown }): OAuthError {
  const issues = Array.isArray(error.validation)
    ? (error.validation as FastifySchemaValidationError[])
    : [];
  const issue = issues.find((each) => each.keyword === NUL_CHARACTER_KEYWORD) ?? issues[0];
  const name = issue?.instancePath.split('/')[1];
  const parameter = name && /^[a-z_]{1,40}$/.test(name) ? name : undefined;
  if (issue?.keyword === NUL_CHARACTER_KEYWORD) {
    return invalidRequest(
      `${parameter ?? 'A parameter'} must not contain the NUL character (U+0000)`,
    );
  }
  if (issue?.keyword === 'type') {
    return invalidRequest(
      parameter ? `${parameter} must be sent once` : 'Each parameter must be sent once',
    );
  }
  return invalidRequest('The request parameters are invalid');
}

/** The parameters every form of a token-handling client endpoint carries. */
export interface ClientTokenForm {
  token?: string;
  client_id?: string;
  client_secret?: string;
}

/**
 * The first steps of revocation (RFC 7009 2.1) and introspection (RFC 7662 2.1), in their order:
 * a form-encoded body, a form that passed its schema (the route runs with `attachValidation`),
 * then the client's authentication, as at the token endpoint and under the same failure count,
 * so that secret guessing cannot move here (docs/oauth.md §6.8). Answers the client and the
 * token named, which each endpoint checks where its RFC puts that check.
 */
export async function authenticateClientForm(
  services: ClientLimitServices,
  request: FastifyRequest & { body: ClientTokenForm },
): Promise<{ client: AuthenticatedClient; token: string | undefined }> {
  assertFormEncoded(request);
  if (request.validationError) throw invalidForm(request.validationError);
  const { token, client_id: clientId, client_secret: clientSecret } = request.body;
  const client = await authenticateClientWithinLimits(services, request, {
    authorization: request.headers.authorization,
    clientId,
    clientSecret,
  });
  return { client, token };
}
