import { clientSecretMatches, type EntityManager } from '@foodshare/domain';
import { findActiveClientWithSecrets, type RegisteredClient } from './registered-clients.ts';
import { invalidClient, invalidRequest } from '../errors/oauth-errors.ts';

export type ClientAuthenticationMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface AuthenticatedClient extends RegisteredClient {
  authenticatedBy: ClientAuthenticationMethod;
}

/** What a token or revocation request says about its client. */
export interface ClientCredentialsInput {
  authorization: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
}

interface PresentedCredentials {
  clientId: string;
  secret: string | null;
  method: ClientAuthenticationMethod;
}

/** RFC 6749 2.3.1: Basic credentials are form-url-encoded before base64 ("+" is a space). */
function formUrlDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

// Longer than any client id or secret this server issues; a longer value names no client.
const MAX_BASIC_PART_LENGTH = 512;

/**
 * A client id or secret as far as it can be one: control characters (U+0000 above all, which
 * PostgreSQL text cannot hold) and oversized values are malformed credentials, not a lookup.
 */
function plausibleCredential(value: string | null): value is string {
  if (value === null || value.length > MAX_BASIC_PART_LENGTH) return false;
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f]/.test(value);
}

function parseBasic(authorization: string): { clientId: string; secret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const clientId = formUrlDecode(decoded.slice(0, colon));
  const secret = formUrlDecode(decoded.slice(colon + 1));
  return clientId && plausibleCredential(clientId) && plausibleCredential(secret)
    ? { clientId, secret }
    : null;
}

function presentedCredentials(input: ClientCredentialsInput): PresentedCredentials {
  const basic = input.authorization?.match(/^Basic\b/i) ? input.authorization : undefined;
  if (basic !== undefined) {
    // RFC 6749 2.3: a client must not use more than one authentication method per request.
    if (input.clientSecret !== undefined) {
      throw invalidRequest('Use only one client authentication method');
    }
    const credentials = parseBasic(basic);
    if (!credentials) throw invalidClient('Malformed Basic credentials', true);
    if (input.clientId !== undefined && input.clientId !== credentials.clientId) {
      throw invalidRequest('client_id differs from the Basic credentials');
    }
    return { ...credentials, method: 'client_secret_basic' };
  }
  if (!input.clientId) throw invalidClient('client_id is required');
  if (input.clientSecret !== undefined) {
    return { clientId: input.clientId, secret: input.clientSecret, method: 'client_secret_post' };
  }
  return { clientId: input.clientId, secret: null, method: 'none' };
}

/**
 * The client_id a request claims, before anything is checked; undefined when the credentials
 * are malformed or name no client. For counting failed authentications per claimed client.
 */
export function claimedClientId(input: ClientCredentialsInput): string | undefined {
  try {
    return presentedCredentials(input).clientId;
  } catch {
    return undefined;
  }
}

/**
 * Whether the request presents a secret that authentication would check: only such a request
 * is a guess. None is checked without a non-empty secret (the empty one is the same guess each
 * time, and how some libraries say that a public client has none), nor for malformed credentials.
 */
export function presentsSecret(input: ClientCredentialsInput): boolean {
  try {
    const { secret } = presentedCredentials(input);
    return secret !== null && secret !== '';
  } catch {
    return false;
  }
}

/**
 * RFC 6749 2.3 and 3.2.1: confidential clients authenticate with their secret
 * (client_secret_basic or client_secret_post), public clients identify themselves by client_id
 * and prove possession of the code by PKCE. Any failure is 401 invalid_client, with a Basic
 * challenge when the Authorization header was tried (RFC 6749 5.2).
 */
export async function authenticateClient(
  em: EntityManager,
  input: ClientCredentialsInput,
  pepper: string,
  now = Date.now(),
): Promise<AuthenticatedClient> {
  const presented = presentedCredentials(input);
  const viaBasic = presented.method === 'client_secret_basic';
  const failed = () => invalidClient('Client authentication failed', viaBasic);
  const found = await findActiveClientWithSecrets(em, presented.clientId);
  if (!found) throw failed();
  const { client, secrets } = found;
  if (client.confidential) {
    if (presented.secret === null) throw failed();
    // During a rotation both secrets work, so a client can switch without a failed request.
    if (!clientSecretMatches(secrets, presented.secret, pepper, new Date(now))) throw failed();
  } else if (presented.secret !== null && presented.secret !== '') {
    // A public client has no secret (an empty Basic password is how some libraries say so);
    // a secret sent anyway means a misconfigured or forged client.
    throw failed();
  }
  return { ...client, authenticatedBy: presented.method };
}
