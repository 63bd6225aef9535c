import type { AuthServices } from '../../auth-services.ts';
import { singleParam, type AuthorizationParams } from '../../authorization/authorization-params.ts';

/**
 * RFC 9126 4: an authorization request naming a request_uri of /oauth/par stands for the pushed
 * parameters, and only those (docs/oauth.md §8.2). Null when the request names none; 'invalid'
 * when it names one that is unknown, expired, used already, or pushed by another client than
 * the request's client_id: nothing in the request can then be trusted to redirect to.
 */
export async function pushedParams(
  services: AuthServices,
  raw: AuthorizationParams,
): Promise<AuthorizationParams | null | 'invalid'> {
  const requestUri = singleParam(raw, 'request_uri');
  if (requestUri === undefined || requestUri === '') return null;
  if (typeof requestUri !== 'string') return 'invalid';
  // Taken before the client is compared: a request_uri presented with the wrong client_id is
  // burnt rather than left for more guesses.
  const pushed = await services.pushedRequests.take(requestUri);
  if (!pushed || pushed.clientId !== singleParam(raw, 'client_id')) return 'invalid';
  return pushed.params;
}
