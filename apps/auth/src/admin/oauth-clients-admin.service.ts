import type { EntityManager, StoredOAuthClientSettings } from '@foodshare/domain';

/** A row of the client list: settings, required regions by name, who changed it last. */
export type ClientListItem = Pick<
  StoredOAuthClientSettings,
  'id' | 'clientId' | 'name' | 'confidential' | 'active' | 'scopes' | 'grantTypes'
> & {
  requiredRegions: { id: number; name: string }[];
  updatedAt: Date;
  updatedByName: string | null;
};

/** What the edit form shows of one client (never its secret hashes). */
export type ClientDetail = StoredOAuthClientSettings & { previousSecretExpiresAt: Date | null };

/** A unit of the region tree with its depth below a root, in tree order. */
export interface RegionOption {
  id: number;
  name: string;
  depth: number;
}

export interface AuditEntry {
  id: number;
  clientId: string;
  action: string;
  changes: Record<string, unknown>;
  createdAt: Date;
  actorName: string | null;
}

interface ClientListRow {
  id: number;
  client_id: string;
  name: string;
  confidential: boolean;
  active: boolean;
  scopes: string[];
  grant_types: string[];
  required_regions: { id: number; name: string }[];
  updated_at: Date;
  updated_by_name: string | null;
}

/** Every client in one query, region names and the last editor's name included. */
export async function listClients(em: EntityManager): Promise<ClientListItem[]> {
  const rows = await em.execute<ClientListRow[]>(
    `select c.id, c.client_id, c.name, c.confidential, c.active, c.scopes, c.grant_types,
            c.updated_at, u.first_name || ' ' || u.last_name as updated_by_name,
            coalesce((select json_agg(json_build_object('id', r.id, 'name', r.name) order by r.name)
                        from regions r where r.id = any(c.required_region_ids)), '[]') as required_regions
       from oauth_clients c
       left join users u on u.id = c.updated_by_id
      order by c.client_id`,
  );
  return rows.map((row) => ({
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    confidential: row.confidential,
    active: row.active,
    scopes: row.scopes,
    grantTypes: row.grant_types,
    requiredRegions: row.required_regions,
    updatedAt: new Date(row.updated_at),
    updatedByName: row.updated_by_name,
  }));
}

interface ClientDetailRow {
  id: number;
  client_id: string;
  name: string;
  confidential: boolean;
  active: boolean;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  require_pushed_authorization_requests: boolean;
  require_dpop: boolean;
  backchannel_logout_uri: string | null;
  logo_uri: string | null;
  client_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  scopes: string[];
  grant_types: string[];
  required_region_ids: number[];
  previous_secret_expires_at: Date | null;
}

export async function findClient(em: EntityManager, id: number): Promise<ClientDetail | null> {
  const rows = await em.execute<ClientDetailRow[]>(
    `select id, client_id, name, confidential, active, redirect_uris, post_logout_redirect_uris,
            require_pushed_authorization_requests, require_dpop, backchannel_logout_uri,
            logo_uri, client_uri, policy_uri, tos_uri,
            scopes, grant_types, required_region_ids, previous_secret_expires_at
       from oauth_clients where id = ?`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    confidential: row.confidential,
    active: row.active,
    redirectUris: row.redirect_uris,
    postLogoutRedirectUris: row.post_logout_redirect_uris,
    requirePushedAuthorizationRequests: row.require_pushed_authorization_requests,
    requireDpop: row.require_dpop,
    backchannelLogoutUri: row.backchannel_logout_uri,
    logoUri: row.logo_uri,
    clientUri: row.client_uri,
    policyUri: row.policy_uri,
    tosUri: row.tos_uri,
    scopes: row.scopes,
    grantTypes: row.grant_types,
    requiredRegionIds: row.required_region_ids,
    previousSecretExpiresAt:
      row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at),
  };
}

// Deeper than any real tree; stops the recursion should a parent cycle ever slip in.
const MAX_REGION_DEPTH = 32;

/**
 * The whole region tree in one query, depth first with siblings by name, for the
 * required-regions picker.
 */
export async function loadRegionTree(em: EntityManager): Promise<RegionOption[]> {
  return em.execute<RegionOption[]>(
    `with recursive tree as (
       select id, name, 0 as depth, array[lower(name), lpad(id::text, 10, '0')] as path
         from regions where parent_id is null
       union all
       select r.id, r.name, t.depth + 1, t.path || array[lower(r.name), lpad(r.id::text, 10, '0')]
         from regions r join tree t on r.parent_id = t.id
        where t.depth < ${MAX_REGION_DEPTH}
     )
     select id, name, depth from tree order by path`,
  );
}

interface AuditRow {
  id: number;
  client_id: string;
  action: string;
  changes: Record<string, unknown>;
  created_at: Date;
  actor_name: string | null;
}

/** The newest audit entries, of one client (by client_id) or of all. */
export async function listAuditEntries(
  em: EntityManager,
  options: { clientId?: string; limit: number },
): Promise<AuditEntry[]> {
  const rows = await em.execute<AuditRow[]>(
    `select a.id, a.client_id, a.action, a.changes, a.created_at,
            u.first_name || ' ' || u.last_name as actor_name
       from oauth_client_audit_log a
       left join users u on u.id = a.actor_id
      where (?::text is null or a.client_id = ?)
      order by a.created_at desc, a.id desc
      limit ?`,
    [options.clientId ?? null, options.clientId ?? null, options.limit],
  );
  return rows.map((row) => ({
    id: row.id,
    clientId: row.client_id,
    action: row.action,
    changes: row.changes,
    createdAt: new Date(row.created_at),
    actorName: row.actor_name,
  }));
}

/** Names of the regions with the given ids (audit entries store ids). */
export async function regionNames(
  em: EntityManager,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await em.execute<{ id: number; name: string }[]>(
    'select id, name from regions where id = any(?::int[])',
    [`{${ids.join(',')}}`],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}
