import type { FastifyRequest } from 'fastify';
import type { AuthenticatedClient } from './client-authentication.ts';
import { authenticateClientWithinLimits, type ClientLimitServices } from './client-rate-limits.ts';
import { assertFormEncoded, invalidForm } from './form-request.ts';

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
