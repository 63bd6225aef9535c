import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { OAuthClientAuditLogEntity, OAuthClientEntity } from '../entities/oauth-client.entity.ts';
import { RegionEntity } from '../entities/region.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import { AccountError } from '../accounts/account-errors.ts';
import { assertBackchannelLogoutUri } from './backchannel-logout-uri.ts';
import {
  assertClientDisplayUri,
  CLIENT_DISPLAY_URI_FIELDS,
  CLIENT_NAME_MARKUP,
} from './client-display-uris.ts';
import { generateClientSecret, hashClientSecret } from './client-secrets.ts';
import { sharedUriProblems, uriTextProblemCode } from './uri-text.ts';

/** `api`: tokens for the REST API (docs/oauth.md §11), only where an admin allowed it. */
export const OAUTH_SCOPES = ['openid', 'profile', 'email', 'regions', 'api'] as const;
// Not exported: packages/schemas owns the names OAuthScope and OAuthGrantType (docs/design.md §7.2).
type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** RFC 8628 3.4: the device authorization grant's grant_type. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

export const OAUTH_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  DEVICE_CODE_GRANT_TYPE,
] as const;
type OAuthGrantType = (typeof OAUTH_GRANT_TYPES)[number];

// client_id travels in query strings and forms; unreserved URI characters need no escaping.
const CLIENT_ID_PATTERN = /^[A-Za-z0-9._~-]{1,100}$/;
const MAX_CLIENT_NAME_LENGTH = 100;
const MAX_REDIRECT_URIS = 20;
const MAX_REDIRECT_URI_LENGTH = 2000;

/** The limits validateOAuthClientInput enforces, for forms that check them field by field first. */
export const OAUTH_CLIENT_LIMITS = {
  clientIdPattern: CLIENT_ID_PATTERN,
  maxNameLength: MAX_CLIENT_NAME_LENGTH,
  maxRedirectUris: MAX_REDIRECT_URIS,
  maxRedirectUriLength: MAX_REDIRECT_URI_LENGTH,
} as const;

export interface OAuthClientInput {
  clientId: string;
  /** Shown to users on the consent screen. */
  name: string;
  confidential: boolean;
  redirectUris: readonly string[];
  /** Where RP-Initiated Logout may return the user (none: a logged-out page). Default: none. */
  postLogoutRedirectUris?: readonly string[];
  /** Refuse authorization requests not pushed to /oauth/par first (RFC 9126 6). Default: false. */
  requirePushedAuthorizationRequests?: boolean;
  /** Refuse token requests without a DPoP proof (RFC 9449 5.2). Default: false. */
  requireDpop?: boolean;
  /** Where Back-Channel Logout POSTs logout tokens; null (the default) for none. */
  backchannelLogoutUri?: string | null;
  /** The client's logo, shown on the consent page (https; null, the default, for none). */
  logoUri?: string | null;
  /** The client's home page, linked from the consent page (https; null for none). */
  clientUri?: string | null;
  /** The client's privacy policy, linked from the consent page (https; null for none). */
  policyUri?: string | null;
  /** The client's terms of service, linked from the consent page (https; null for none). */
  tosUri?: string | null;
  /** Must include openid. */
  scopes: readonly string[];
  /** Must include authorization_code. */
  grantTypes: readonly string[];
  /** Empty: every user may use the client. */
  requiredRegionIds?: readonly number[];
  active?: boolean;
}

export interface OAuthClientSettings {
  clientId: string;
  name: string;
  confidential: boolean;
  active: boolean;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  requirePushedAuthorizationRequests: boolean;
  requireDpop: boolean;
  backchannelLogoutUri: string | null;
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  scopes: OAuthScope[];
  grantTypes: OAuthGrantType[];
  requiredRegionIds: number[];
}

/**
 * A client's settings as a row holds them, with its row id: the database checks the scopes and
 * grant types, so they read back as plain strings. The views of the admin page and the CLI
 * derive from it.
 */
export type StoredOAuthClientSettings = Omit<OAuthClientSettings, 'scopes' | 'grantTypes'> & {
  id: number;
  scopes: string[];
  grantTypes: string[];
};

function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** Why a redirect URI cannot be registered, as a stable code a page can word in its language. */
export type RedirectUriProblemCode =
  | 'LENGTH'
  | 'WHITE_SPACE'
  | 'WILDCARD'
  | 'FRAGMENT'
  | 'NOT_ABSOLUTE'
  | 'CREDENTIALS'
  | 'NO_HOST'
  | 'NOT_HTTPS'
  | 'UNSAFE_SCHEME'
  | 'SCHEME_NOT_REVERSE_DOMAIN'
  | 'PRIVATE_SCHEME_CONFIDENTIAL';

const REDIRECT_URI_PROBLEMS: Record<RedirectUriProblemCode, string> = {
  ...sharedUriProblems(MAX_REDIRECT_URI_LENGTH),
  WILDCARD: 'must not contain a wildcard',
  NOT_ABSOLUTE: 'must be an absolute URL',
  NO_HOST: 'must name a host',
  NOT_HTTPS: 'must use https (http only on a loopback host)',
  UNSAFE_SCHEME:
    'must not use a scheme the browser runs or reads itself (javascript:, data:, file:)',
  SCHEME_NOT_REVERSE_DOMAIN:
    "must use https, http on a loopback host, or an app's own scheme named by a domain in reverse (com.example.app:/callback)",
  PRIVATE_SCHEME_CONFIDENTIAL:
    "uses an app's own scheme, which only a public client (a native app) may register",
};

/**
 * Schemes a browser handles itself instead of handing them to an app: a redirect there runs
 * script or reads local data in the user's browser.
 */
const UNSAFE_SCHEMES = new Set([
  'javascript',
  'data',
  'file',
  'vbscript',
  'blob',
  'about',
  'filesystem',
]);

/**
 * RFC 8252 7.1: a private-use scheme is a domain the app's publisher controls, in reverse
 * (`com.example.app`), so that two apps do not claim the same one; one without a period is
 * refused (8.4). DNS labels separated by periods, at least two; `URL` has lowercased it.
 */
const REVERSE_DOMAIN_SCHEME =
  /^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/**
 * Why a URI cannot be registered as a redirect URI, or null when it can. A registered one must
 * name one endpoint: absolute, no fragment (RFC 6749 3.1.2), no wildcard; the authorization
 * endpoint compares it as an exact string (a loopback port aside, see redirectUriMatches).
 * Codes travel in it, so it must be https; plain http only reaches the user's own machine
 * (RFC 8252 7.3, native apps on loopback).
 *
 * `client`: the client it is registered for. Its redirect and post-logout redirect URIs may also
 * use an app's own scheme (RFC 8252 7.1), a public client's only: such a redirect reaches an app
 * on the user's device, and an app is a public client (RFC 8252 8.4; a secret built into it is
 * none, 8.5), which must use PKCE here, the protection of a code another app may intercept
 * (8.1). Without a client (a URI the server itself calls) only https and loopback http pass
 * (docs/oauth.md §2.10).
 */
export function redirectUriProblemCode(
  uri: string,
  client?: { confidential: boolean },
): RedirectUriProblemCode | null {
  const text = uriTextProblemCode(uri, MAX_REDIRECT_URI_LENGTH);
  if (text !== null) return text;
  if (uri.includes('*')) return 'WILDCARD';
  if (uri.includes('#')) return 'FRAGMENT';
  if (!URL.canParse(uri)) return 'NOT_ABSOLUTE';
  const url = new URL(uri);
  if (url.username !== '' || url.password !== '') return 'CREDENTIALS';
  if (url.protocol === 'https:') return url.hostname === '' ? 'NO_HOST' : null;
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname) ? null : 'NOT_HTTPS';
  if (client === undefined) return 'NOT_HTTPS';
  const scheme = url.protocol.slice(0, -1);
  if (UNSAFE_SCHEMES.has(scheme)) return 'UNSAFE_SCHEME';
  if (!REVERSE_DOMAIN_SCHEME.test(scheme)) return 'SCHEME_NOT_REVERSE_DOMAIN';
  return client.confidential ? 'PRIVATE_SCHEME_CONFIDENTIAL' : null;
}

/** Why a redirect URI cannot be registered, in English, or null when it can. */
export function redirectUriProblem(uri: string, client?: { confidential: boolean }): string | null {
  const code = redirectUriProblemCode(uri, client);
  return code === null ? null : REDIRECT_URI_PROBLEMS[code];
}

export function assertRedirectUri(
  uri: string,
  kind = 'redirect URI',
  client?: { confidential: boolean },
): void {
  const problem = redirectUriProblem(uri, client);
  if (problem !== null) {
    throw new AccountError('INVALID_REDIRECT_URI', `Invalid ${kind} ${uri}: ${problem}`);
  }
}

function invalid(message: string): AccountError {
  return new AccountError('INVALID_INPUT', message);
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

export interface OAuthClientValidationOptions {
  /**
   * Hosts a back-channel logout URI may name although they are not public, over http too
   * (BACKCHANNEL_LOGOUT_ALLOWED_HOSTS, parsed): a local receiver in development. Default: none.
   */
  backchannelLogoutAllowedHosts?: readonly string[];
  /**
   * The back-channel logout URI the client has now, at an update: kept as it is, it is not
   * checked again, so that a URI registered under looser rules does not block every other
   * change (delivery checks it at every send, docs/oauth.md §9.4).
   */
  storedBackchannelLogoutUri?: string | null;
}

/** Checks a client's settings without touching the database, and returns them de-duplicated. */
export function validateOAuthClientInput(
  input: OAuthClientInput,
  options: OAuthClientValidationOptions = {},
): OAuthClientSettings {
  if (!CLIENT_ID_PATTERN.test(input.clientId)) {
    throw invalid('The client id must have 1 to 100 characters out of letters, digits and . _ ~ -');
  }
  const name = input.name.trim();
  if (name === '' || name.length > MAX_CLIENT_NAME_LENGTH) {
    throw invalid(`The client name must have 1 to ${MAX_CLIENT_NAME_LENGTH} characters`);
  }
  // Every sign-in page shows it; escaped there, but a name with markup is someone's probe.
  if (CLIENT_NAME_MARKUP.test(name)) throw invalid('The client name must not contain < or >');
  const redirectUris = unique(input.redirectUris);
  if (redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS) {
    throw invalid(`A client needs 1 to ${MAX_REDIRECT_URIS} redirect URIs`);
  }
  const client = { confidential: input.confidential };
  redirectUris.forEach((uri) => assertRedirectUri(uri, 'redirect URI', client));

  // The same rules as redirect URIs: after logout the user lands there with `state`, and the
  // logout endpoint compares them as it compares redirect URIs (a native app's too).
  const postLogoutRedirectUris = unique(input.postLogoutRedirectUris ?? []);
  if (postLogoutRedirectUris.length > MAX_REDIRECT_URIS) {
    throw invalid(`A client may have at most ${MAX_REDIRECT_URIS} post-logout redirect URIs`);
  }
  postLogoutRedirectUris.forEach((uri) =>
    assertRedirectUri(uri, 'post-logout redirect URI', client),
  );

  // Not the redirect URI rules: the server itself POSTs there, so it must be a public host.
  const backchannelLogoutUri = input.backchannelLogoutUri ?? null;
  if (backchannelLogoutUri !== null && backchannelLogoutUri !== options.storedBackchannelLogoutUri)
    assertBackchannelLogoutUri(backchannelLogoutUri, options.backchannelLogoutAllowedHosts);

  // Shown to the user as links (and the logo as an image), never fetched by the server.
  const displayUris = {
    logoUri: input.logoUri ?? null,
    clientUri: input.clientUri ?? null,
    policyUri: input.policyUri ?? null,
    tosUri: input.tosUri ?? null,
  };
  for (const field of CLIENT_DISPLAY_URI_FIELDS) {
    const uri = displayUris[field];
    if (uri !== null) assertClientDisplayUri(field, uri);
  }

  const scopes = unique(input.scopes);
  const unknownScope = scopes.find((scope) => !(OAUTH_SCOPES as readonly string[]).includes(scope));
  if (unknownScope !== undefined) {
    throw invalid(`Unknown scope ${unknownScope}: scopes are ${OAUTH_SCOPES.join(', ')}`);
  }
  if (!scopes.includes('openid')) throw invalid('The scopes must include openid');

  const grantTypes = unique(input.grantTypes);
  const unknownGrant = grantTypes.find(
    (grant) => !(OAUTH_GRANT_TYPES as readonly string[]).includes(grant),
  );
  if (unknownGrant !== undefined) {
    throw invalid(
      `Unknown grant type ${unknownGrant}: grant types are ${OAUTH_GRANT_TYPES.join(', ')}`,
    );
  }
  if (!grantTypes.includes('authorization_code')) {
    throw invalid('The grant types must include authorization_code');
  }

  const requiredRegionIds = unique(input.requiredRegionIds ?? []);
  const badRegionId = requiredRegionIds.find((id) => !Number.isSafeInteger(id) || id < 1);
  if (badRegionId !== undefined) throw invalid(`Not a region id: ${badRegionId}`);

  return {
    clientId: input.clientId,
    name,
    confidential: input.confidential,
    active: input.active ?? true,
    redirectUris,
    postLogoutRedirectUris,
    requirePushedAuthorizationRequests: input.requirePushedAuthorizationRequests ?? false,
    requireDpop: input.requireDpop ?? false,
    backchannelLogoutUri,
    ...displayUris,
    scopes: scopes as OAuthScope[],
    grantTypes: grantTypes as OAuthGrantType[],
    requiredRegionIds,
  };
}

export interface CreatedOAuthClient {
  client: OAuthClientEntity;
  /** The secret of a confidential client, in clear: shown once, never stored. Null for a public client. */
  secret: string | null;
}

export interface CreateOAuthClientOptions extends OAuthClientValidationOptions {
  /** The server-side pepper of client secret hashes (CLIENT_SECRET_PEPPER). */
  pepper: string;
  /** Who creates the client, for the audit trail; null for the command line and seeds. */
  actorId?: number | null;
}

/** Registers a client; a confidential one gets a fresh 256-bit secret, returned once. */
export async function createOAuthClient(
  em: EntityManager,
  input: OAuthClientInput,
  options: CreateOAuthClientOptions,
): Promise<CreatedOAuthClient> {
  const settings = validateOAuthClientInput(input, options);
  const secret = settings.confidential ? generateClientSecret() : null;
  const secretHash = secret === null ? null : hashClientSecret(secret, options.pepper);
  const client = await insertOAuthClient(em, settings, secretHash, options.actorId ?? null);
  return { client, secret };
}

/**
 * Stores validated settings with an already hashed secret. Not exported from the package: only
 * the demo data sets a secret of its choosing.
 */
export async function insertOAuthClient(
  em: EntityManager,
  settings: OAuthClientSettings,
  secretHash: string | null,
  actorId: number | null,
): Promise<OAuthClientEntity> {
  if ((await em.count(OAuthClientEntity, { clientId: settings.clientId })) > 0) {
    throw clientIdTaken(settings.clientId);
  }
  if (settings.requiredRegionIds.length > 0) {
    const found = await em.find(
      RegionEntity,
      { id: { $in: settings.requiredRegionIds } },
      { fields: ['id'] },
    );
    const missing = settings.requiredRegionIds.filter((id) => !found.some((r) => r.id === id));
    if (missing.length > 0) {
      throw new AccountError('REGION_NOT_FOUND', `No region has the id ${missing.join(', ')}`);
    }
  }
  const client = em.create(OAuthClientEntity, {
    ...settings,
    secretHash,
    updatedBy: actorId,
  });
  const { clientId, ...changes } = settings;
  em.create(OAuthClientAuditLogEntity, {
    clientId,
    actor: actorId,
    action: 'create',
    changes: { ...changes, secret: secretHash === null ? 'none' : 'set' },
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw clientIdTaken(clientId);
    throw error;
  }
  return client;
}

function clientIdTaken(clientId: string): AccountError {
  return new AccountError('CLIENT_ID_TAKEN', `A client with the id ${clientId} already exists`);
}
