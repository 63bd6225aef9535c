import {
  DEVICE_CODE_GRANT_TYPE,
  isRegisteredRedirectUri,
  type EntityManager,
} from '@foodshare/domain';
import type { Session } from '@foodshare/server-kit';
import { NOT_IN_REQUIRED_REGIONS, passesRegionGate } from '../clients/region-gate.ts';
import { findActiveClient, type RegisteredClient } from '../clients/registered-clients.ts';
import {
  accessDenied,
  consentRequired,
  loginRequired,
  type OAuthError,
} from '../errors/oauth-errors.ts';
import type { AuthorizationCodeStore, ConsentStore } from '@foodshare/server-kit/oauth-grants';
import {
  type AuthorizationRequest,
  type AuthorizationRequestStore,
  type PendingAuthorizationRequest,
  sessionFingerprint,
} from '../stores/authorization-requests.store.ts';
import type { AuditEvent } from '../observability/audit.ts';
import type { DeviceAuthorizationStore } from '../stores/device-authorizations.store.ts';
import { hash } from 'node:crypto';

/** What the authorization endpoint does next with a request. */
export type AuthorizationOutcome =
  /** Redirect the error to the client (RFC 6749 4.1.2.1). */
  | { kind: 'error'; error: OAuthError }
  /**
   * The user is in none of the client's required regions: a page says so, and its link takes
   * the error to the client (with `prompt=none` no page is shown: an `error` outcome instead).
   */
  | { kind: 'not_in_regions'; error: OAuthError; clientName: string }
  | { kind: 'login'; pending: PendingAuthorizationRequest }
  | { kind: 'consent'; pending: PendingAuthorizationRequest }
  /** Redirect the code to the client. */
  | { kind: 'code'; code: string }
  /** The user approved a device (RFC 8628): a page says so; the device learns it by polling. */
  | { kind: 'device_approved'; clientName: string }
  /** A parked request that was decided already (a second submit) or has expired. */
  | { kind: 'expired' };

export interface AuthorizationContext {
  em: EntityManager;
  codes: AuthorizationCodeStore;
  consents: ConsentStore;
  requests: AuthorizationRequestStore;
  devices: DeviceAuthorizationStore;
  audit: (event: AuditEvent, fields: Record<string, unknown>) => void;
  /** Seconds since the epoch. */
  now?: () => number;
}

type AnyRequest = AuthorizationRequest | PendingAuthorizationRequest;

function isPending(request: AnyRequest): request is PendingAuthorizationRequest {
  return 'id' in request;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The user denied the request on the consent screen. */
export const USER_DENIED = 'The user denied the request';

/**
 * The client of a parked request, if it is still active and still has the redirect URI (for a
 * device request: still the device grant): a client deactivated while the user was logging in
 * gets nothing.
 */
export async function clientOfPending(
  em: EntityManager,
  pending: Pick<AuthorizationRequest, 'clientId' | 'redirectUri' | 'deviceId'>,
) {
  const client = await findActiveClient(em, pending.clientId);
  if (!client) return null;
  const registered =
    pending.deviceId === undefined
      ? isRegisteredRedirectUri(client.redirectUris, pending.redirectUri)
      : client.grantTypes.includes(DEVICE_CODE_GRANT_TYPE);
  return registered ? client : null;
}

/**
 * OIDC Core 3.1.2.1: `prompt=login` and an exceeded `max_age` ask for a fresh login
 * (`max_age=0` is equivalent to `prompt=login`). A login made for this very request satisfies
 * both, which is what ends the round trip through the login page.
 */
export function needsLogin(request: AnyRequest, session: Session | null, now: number): boolean {
  if (!session) return true;
  if (isPending(request) && request.loginSession === sessionFingerprint(session.id)) return false;
  if (request.prompt.includes('login')) return true;
  if (request.maxAge === null) return false;
  return request.maxAge === 0 || now - session.authTime > request.maxAge;
}

async function park(ctx: AuthorizationContext, request: AnyRequest) {
  return isPending(request) ? request : ctx.requests.park(request);
}

/** Ends a parked request; false when another request ended it first. */
async function finish(ctx: AuthorizationContext, request: AnyRequest): Promise<boolean> {
  return isPending(request) ? ctx.requests.finish(request.id) : true;
}

async function issueCode(
  ctx: AuthorizationContext,
  client: RegisteredClient,
  request: AnyRequest,
  session: Session,
): Promise<AuthorizationOutcome> {
  if (request.deviceId !== undefined) {
    return approveDevice(ctx, client, request, request.deviceId, session);
  }
  const code = await ctx.codes.issue({
    clientId: request.clientId,
    userId: session.userId,
    redirectUri: request.redirectUri,
    scopes: request.scopes,
    codeChallenge: request.codeChallenge,
    nonce: request.nonce,
    authTime: session.authTime,
    sid: sessionSid(session.id),
    ...(request.dpopJkt === undefined ? {} : { dpopJkt: request.dpopJkt }),
  });
  ctx.audit('code_issued', {
    clientId: request.clientId,
    userId: session.userId,
    scopes: request.scopes,
  });
  return { kind: 'code', code };
}

/** RFC 8628: the consent goes to the device's authorization, which its next poll redeems. */
async function approveDevice(
  ctx: AuthorizationContext,
  client: RegisteredClient,
  request: AnyRequest,
  deviceId: string,
  session: Session,
): Promise<AuthorizationOutcome> {
  const approved = await ctx.devices.decide(deviceId, {
    userId: session.userId,
    authTime: session.authTime,
    sid: sessionSid(session.id),
    scopes: request.scopes,
    approvedAt: Date.now(),
  });
  if (!approved) return { kind: 'expired' };
  ctx.audit('device_approved', {
    clientId: request.clientId,
    userId: session.userId,
    scopes: request.scopes,
  });
  return { kind: 'device_approved', clientName: client.name };
}

/** A device request denied (by the user or the region gate): the device's next poll learns it. */
async function denyDevice(ctx: AuthorizationContext, request: AnyRequest): Promise<void> {
  if (request.deviceId !== undefined) await ctx.devices.decide(request.deviceId, 'denied');
}

/**
 * The steps every request takes once its parameters are valid, in OIDC's order: a user
 * (login, unless `prompt=none`), the client's region requirement, consent (remembered, or the
 * screen, unless `prompt=none`), then a code. Run again at every page of the interaction, so a
 * user who changed in between is checked as who they are now.
 */
export async function advance(
  ctx: AuthorizationContext,
  client: RegisteredClient,
  request: AnyRequest,
  session: Session | null,
): Promise<AuthorizationOutcome> {
  const now = (ctx.now ?? nowSeconds)();
  if (!session || needsLogin(request, session, now)) {
    if (request.prompt.includes('none')) return { kind: 'error', error: loginRequired() };
    return { kind: 'login', pending: await park(ctx, request) };
  }
  const gate = await checkRegionGate(ctx, client, request, session);
  if (gate) return gate;
  const remembered =
    !request.prompt.includes('consent') &&
    (await ctx.consents.covers(session.userId, client.clientId, request.scopes));
  if (remembered) {
    if (!(await finish(ctx, request))) return { kind: 'expired' };
    return issueCode(ctx, client, request, session);
  }
  if (request.prompt.includes('none')) return { kind: 'error', error: consentRequired() };
  return { kind: 'consent', pending: await park(ctx, request) };
}

/** The user's answer on the consent screen. */
export async function decide(
  ctx: AuthorizationContext,
  client: RegisteredClient,
  pending: PendingAuthorizationRequest,
  session: Session,
  decision: { allow: boolean; remember: boolean },
): Promise<AuthorizationOutcome> {
  const now = (ctx.now ?? nowSeconds)();
  if (needsLogin(pending, session, now)) return { kind: 'login', pending };
  const gate = await checkRegionGate(ctx, client, pending, session);
  if (gate) return gate;
  // A decision is made once: a second submit of the form finds the request gone.
  if (!(await ctx.requests.finish(pending.id))) return { kind: 'expired' };
  const fields = { clientId: client.clientId, userId: session.userId, scopes: pending.scopes };
  if (!decision.allow) {
    await denyDevice(ctx, pending);
    ctx.audit('consent_denied', fields);
    return { kind: 'error', error: accessDenied(USER_DENIED) };
  }
  if (decision.remember) {
    await ctx.consents.remember(session.userId, client.clientId, pending.scopes);
  }
  ctx.audit('consent_granted', { ...fields, remembered: decision.remember });
  return issueCode(ctx, client, pending, session);
}

/**
 * docs/spec.md §5.2 rule 8. The refusal is a page that tells the user why and leads back to the
 * client with access_denied; with `prompt=none` (OIDC Core 3.1.2.1: no page, ever) the error
 * goes straight back to the client.
 */
async function checkRegionGate(
  ctx: AuthorizationContext,
  client: RegisteredClient,
  request: AnyRequest,
  session: Session,
): Promise<AuthorizationOutcome | null> {
  if (await passesRegionGate(ctx.em, session.userId, client.requiredRegionIds)) return null;
  await finish(ctx, request);
  await denyDevice(ctx, request);
  const error = accessDenied(NOT_IN_REQUIRED_REGIONS);
  if (request.prompt.includes('none')) return { kind: 'error', error };
  return { kind: 'not_in_regions', error, clientName: client.name };
}

/**
 * The `sid` of OpenID Connect Front- and Back-Channel Logout (docs/oauth.md §4.4): names the
 * user's login session at this server in ID tokens and logout tokens. Derived from the session's
 * key in the store (itself the SHA-256 of the cookie) under a label of its own: the same for every
 * token of the session, without storing anything, and neither the cookie nor the store key can
 * be worked back from it.
 */
export function sessionSid(sessionId: string): string {
  return hash('sha256', `oidc-sid:${sessionFingerprint(sessionId)}`, 'base64url');
}
