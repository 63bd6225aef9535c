import { type EntityManager, runSql } from '@foodshare/domain';

/** What the protocol endpoints need of a registered client (never its secret hashes). */
export interface RegisteredClient {
  clientId: string;
  name: string;
  confidential: boolean;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  scopes: string[];
  grantTypes: string[];
  requiredRegionIds: number[];
  /** RFC 9126 6: /oauth/authorize takes this client's requests only by request_uri. */
  requirePushedAuthorizationRequests: boolean;
  /** RFC 9449 5.2: the token endpoint takes this client's requests only with a DPoP proof. */
  requireDpop: boolean;
  /** Back-Channel Logout 1.0: where logout tokens are POSTed; null for none. */
  backchannelLogoutUri: string | null;
}

/**
 * OIDC Core 11: asks for a refresh token that outlives the user's sign-in (docs/oauth.md §3.8).
 * Not registered like the other scopes: it comes with the refresh_token grant.
 */
export const OFFLINE_ACCESS = 'offline_access';

/**
 * Whether the client may be granted the scope: one it registered, or offline_access when it is
 * registered for the refresh_token grant (without it there is no refresh token to extend).
 */
export function mayHoldScope(client: RegisteredClient, scope: string): boolean {
  if (scope === OFFLINE_ACCESS) return client.grantTypes.includes('refresh_token');
  return client.scopes.includes(scope);
}

interface ActiveClientRow {
  client_id: string;
  name: string;
  confidential: boolean;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  scopes: string[];
  grant_types: string[];
  required_region_ids: number[];
  require_pushed_authorization_requests: boolean;
  require_dpop: boolean;
  backchannel_logout_uri: string | null;
  secret_hash: string | null;
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | string | null;
}

/** A confidential client's secret hashes: during a rotation the previous one works too. */
export interface ClientSecretHashes {
  secretHash: string | null;
  previousSecretHash: string | null;
  previousSecretExpiresAt: Date | null;
}

/** An active client's row as client authentication reads it (`findActiveClientWithSecrets`). */
export interface ClientRow {
  client: RegisteredClient;
  secrets: ClientSecretHashes;
}

// The secret hashes come along so that authenticating a client is one statement. The row is
// kept only by client authentication (`RememberedClients` below), never handed on with its hashes.
const ACTIVE_CLIENT = `select client_id, name, confidential, redirect_uris, post_logout_redirect_uris, scopes,
          grant_types, required_region_ids, require_pushed_authorization_requests, require_dpop,
          backchannel_logout_uri, secret_hash, previous_secret_hash, previous_secret_expires_at
     from oauth_clients where client_id = ? and active`;

/**
 * An active client by its client_id with its secret hashes, or null: a deactivated client is
 * unknown to the protocol. For client authentication only; everything else takes
 * `findActiveClient`.
 */
export async function findActiveClientWithSecrets(
  em: EntityManager,
  clientId: string,
): Promise<ClientRow | null> {
  const [row] = await runSql<ActiveClientRow>(em, { sql: ACTIVE_CLIENT, params: [clientId] });
  if (!row) return null;
  const expiresAt = row.previous_secret_expires_at;
  return {
    client: {
      clientId: row.client_id,
      name: row.name,
      confidential: row.confidential,
      redirectUris: row.redirect_uris,
      postLogoutRedirectUris: row.post_logout_redirect_uris,
      scopes: row.scopes,
      grantTypes: row.grant_types,
      requiredRegionIds: row.required_region_ids,
      requirePushedAuthorizationRequests: row.require_pushed_authorization_requests,
      requireDpop: row.require_dpop,
      backchannelLogoutUri: row.backchannel_logout_uri,
    },
    secrets: {
      secretHash: row.secret_hash,
      previousSecretHash: row.previous_secret_hash,
      previousSecretExpiresAt: expiresAt === null ? null : new Date(expiresAt),
    },
  };
}

/** An active client by its client_id, or null: a deactivated client is unknown to the protocol. */
export async function findActiveClient(
  em: EntityManager,
  clientId: string,
): Promise<RegisteredClient | null> {
  return (await findActiveClientWithSecrets(em, clientId))?.client ?? null;
}

/**
 * How long an instance authenticates a client on the row it read. A change announced by its
 * writer (the admin page, the CLI: `announceClientRowChange`) ends that at once, on every
 * instance; a change made otherwise (an operator's SQL, an instance of 0.1.0) holds within this.
 */
export const CLIENT_ROW_MAX_AGE_MS = 30_000;

/** A row with the value of the client's version key read before it (`clientRowVersionKey`). */
export interface RecalledClientRow {
  row: ClientRow;
  version: string | null;
}

interface Entry extends RecalledClientRow {
  readAt: number;
}

/**
 * The client rows this instance read, so that a token request reads no row (docs/oauth.md §6.4,
 * docs/benchmarks.md §2.2). Each was read after its version: the version read again in the
 * round trip that ends the client's authentication tells whether the row is still the one
 * stored. Only rows of active clients are kept, so there are never more than the clients.
 */
export class RememberedClients {
  readonly #rows = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  recall(clientId: string): RecalledClientRow | undefined {
    const entry = this.#rows.get(clientId);
    if (entry === undefined) return undefined;
    if (this.#now() - entry.readAt < CLIENT_ROW_MAX_AGE_MS) return entry;
    this.#rows.delete(clientId);
    return undefined;
  }

  remember(clientId: string, row: ClientRow, version: string | null): void {
    this.#rows.set(clientId, { row, version, readAt: this.#now() });
  }

  forget(clientId: string): void {
    this.#rows.delete(clientId);
  }
}

/** A text[] literal, every element quoted, so no value can end the list early. */
function postgresTextArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** Names of the clients, deactivated ones included: a user still recognises them. */
export async function clientNames(
  em: EntityManager,
  clientIds: readonly string[],
): Promise<Map<string, string>> {
  if (clientIds.length === 0) return new Map();
  const rows = await em.execute<{ client_id: string; name: string }[]>(
    'select client_id, name from oauth_clients where client_id = any(?::text[])',
    [postgresTextArray(clientIds)],
  );
  return new Map(rows.map((row) => [row.client_id, row.name]));
}

/** Where a client takes logout tokens (Back-Channel Logout 1.0). */
export interface BackchannelLogoutTarget {
  clientId: string;
  uri: string;
}

/** The active clients among `clientIds` that registered a back-channel logout URI. */
export async function backchannelLogoutTargets(
  em: EntityManager,
  clientIds: readonly string[],
): Promise<BackchannelLogoutTarget[]> {
  if (clientIds.length === 0) return [];
  const rows = await em.execute<{ client_id: string; backchannel_logout_uri: string }[]>(
    `select client_id, backchannel_logout_uri from oauth_clients
      where client_id = any(?::text[]) and active and backchannel_logout_uri is not null`,
    [postgresTextArray(clientIds)],
  );
  return rows.map((row) => ({ clientId: row.client_id, uri: row.backchannel_logout_uri }));
}

/** What a client registered about itself for the consent page (docs/oauth.md §2.11). */
export interface ClientPresentation {
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
}

const NO_PRESENTATION: ClientPresentation = {
  logoUri: null,
  clientUri: null,
  policyUri: null,
  tosUri: null,
};

/** Read by the consent page alone, not with every protocol request's client. */
export async function clientPresentation(
  em: EntityManager,
  clientId: string,
): Promise<ClientPresentation> {
  const [row] = await em.execute<
    {
      logo_uri: string | null;
      client_uri: string | null;
      policy_uri: string | null;
      tos_uri: string | null;
    }[]
  >('select logo_uri, client_uri, policy_uri, tos_uri from oauth_clients where client_id = ?', [
    clientId,
  ]);
  if (!row) return NO_PRESENTATION;
  return {
    logoUri: row.logo_uri,
    clientUri: row.client_uri,
    policyUri: row.policy_uri,
    tosUri: row.tos_uri,
  };
}
