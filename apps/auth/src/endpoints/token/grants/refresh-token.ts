import { mayHoldScope, type RegisteredClient } from '../../../clients/registered-clients.ts';
import { checkGrantHolder } from '../../../tokens/grant-holder-check.ts';
import type { TokenSubject } from '../../../claims/user-claims.ts';
import { invalidGrant, invalidScope } from '../../../errors/oauth-errors.ts';
import type { RefreshFamily, RefreshTokenClaims } from '@foodshare/server-kit/oauth-grants';
import { issueTokens, planAccessToken, type TokenResponse } from '../issue-tokens.ts';
import type { Grant, GrantRequest, TokenServices } from './grant.ts';

const INVALID_REFRESH_TOKEN = 'Invalid refresh token';

/**
 * RFC 6749 6: the requested scope may only narrow the grant; omitted means all of it. The grant
 * is what the user granted and the client is still registered for. An administrator who takes
 * a scope from a client takes it from the client's existing grants too. The family keeps what
 * the user granted, so a scope given back to the client comes back with it.
 */
function narrowedScopes(
  requested: string | undefined,
  granted: string[],
  client: RegisteredClient,
): string[] {
  const available = granted.filter((scope) => mayHoldScope(client, scope));
  if (available.length === 0) {
    throw invalidScope('The client is no longer registered for any scope of the grant');
  }
  if (requested === undefined) return available;
  const scopes = [...new Set(requested.split(' ').filter((scope) => scope !== ''))];
  if (scopes.length === 0) throw invalidScope('scope must name at least one scope');
  const extra = scopes.filter((scope) => !granted.includes(scope));
  if (extra.length > 0) throw invalidScope(`Not granted originally: ${extra.join(' ')}`);
  const unregistered = scopes.filter((scope) => !available.includes(scope));
  if (unregistered.length > 0) {
    throw invalidScope(`The client is not registered for scope ${unregistered.join(', ')}`);
  }
  return scopes;
}

/**
 * A grant the user may no longer hold (checkGrantHolder) is revoked, not just refused. The user as
 * read for it, with the claims of `scopes`, when it holds.
 */
async function assertGrantStillHolds(
  services: TokenServices,
  { request, client }: GrantRequest,
  family: RefreshFamily,
  scopes: string[],
): Promise<TokenSubject> {
  const check = await checkGrantHolder(request.em, family, client, scopes);
  if (check.holds) return check.subject;
  const { reason } = check;
  await services.families.revoke(family.id);
  services.audit(request, 'tokens_revoked', {
    clientId: client.clientId,
    userId: family.userId,
    familyId: family.id,
    reason,
  });
  throw invalidGrant(reason);
}

/**
 * Issues the next generation under the rotation lease, then marks the presented token rotated.
 * Whatever fails before that mark (a dropped database connection, the store, signing) gives the
 * lease back and leaves the token as it was: the client's retry with it works, the grant is not
 * lost.
 */
async function rotate(
  services: TokenServices,
  grantRequest: GrantRequest,
  family: RefreshFamily,
  scopes: string[],
  jti: string,
  attempt: string,
): Promise<TokenResponse> {
  const { families } = services;
  try {
    const subject = await assertGrantStillHolds(services, grantRequest, family, scopes);
    const { client, dpopJkt } = grantRequest;
    // RFC 9449 5: a public client's refresh tokens are bound from its first proof on.
    const bound =
      !client.confidential && family.jkt === undefined && dpopJkt !== null
        ? await families.bindToKey(family, dpopJkt)
        : family;
    const tokens = await issueTokens(services, {
      family: bound,
      begins: false,
      scopes,
      accessToken: planAccessToken(services),
      // OIDC Core 12.2: a refreshed ID token has no nonce; sub, aud and auth_time stay.
      nonce: null,
      // RFC 6749 6: the new refresh token keeps the scope of the grant, not the narrowed one.
      withRefreshToken: true,
      user: subject.claims,
      dpopJkt: grantRequest.dpopJkt,
    });
    // A rotation slower than its lease, overtaken by another use of the token: that one answers.
    if (!(await families.completeRotation(family.id, jti, attempt))) {
      throw invalidGrant(INVALID_REFRESH_TOKEN);
    }
    return tokens;
  } catch (error) {
    // Best effort: should the store be out of reach too, the lease runs out on its own.
    await families.abandonRotation(family.id, jti, attempt).catch((abandonError: unknown) => {
      grantRequest.request.log.warn({ err: abandonError }, 'could not give a rotation lease back');
    });
    throw error;
  }
}

/** A refresh token as presented: its claims, and its family when it names one of the client. */
interface PresentedRefreshToken {
  claims: RefreshTokenClaims | null;
  family: RefreshFamily | null;
}

/** Opens the token and reads its family in one go, sent before anything awaits. */
async function presentedRefreshToken(
  { refreshTokens, families }: TokenServices,
  { refresh_token: token }: { refresh_token: string },
  clientId: string,
): Promise<PresentedRefreshToken> {
  const claims = refreshTokens.openNow(token);
  if (!claims || claims.clientId !== clientId) return { claims, family: null };
  return { claims, family: await families.find(claims.familyId, clientId) };
}

/**
 * RFC 6749 6 with RFC 9700 4.14.2: every refresh rotates the token; an old token presented
 * again revokes the whole family with its access tokens.
 */
export const refreshTokenGrant: Grant<'refresh_token', PresentedRefreshToken> = {
  grantType: 'refresh_token',
  requiredParams: ['refresh_token'],
  readAhead: presentedRefreshToken,

  async handle(services, grantRequest) {
    const { request, client, params } = grantRequest;
    const { families, audit } = services;
    const { claims, family } = await (grantRequest.ahead ??
      presentedRefreshToken(services, params, client.clientId));
    if (!claims) throw invalidGrant(INVALID_REFRESH_TOKEN);
    if (claims.clientId !== client.clientId) {
      throw invalidGrant('The refresh token was issued to another client');
    }
    if (!family || family.clientId !== client.clientId) throw invalidGrant(INVALID_REFRESH_TOKEN);
    // RFC 9449 5: a bound refresh token works only with a proof of the same key.
    if (family.jkt !== undefined && family.jkt !== grantRequest.dpopJkt) {
      throw invalidGrant('The refresh token is bound to another DPoP key');
    }
    const scopes = narrowedScopes(params.scope, family.scopes, client);

    const start = await families.startRotation(
      family.id,
      claims.jti,
      grantRequest.requestStartedAt,
    );
    if (start.use === 'replayed') {
      await families.revoke(family.id);
      audit(request, 'refresh_reuse_detected', {
        clientId: client.clientId,
        userId: family.userId,
        familyId: family.id,
      });
      throw invalidGrant(INVALID_REFRESH_TOKEN);
    }
    if (start.use === 'concurrent') throw invalidGrant(INVALID_REFRESH_TOKEN);

    const tokens = await rotate(services, grantRequest, family, scopes, claims.jti, start.attempt);
    audit(request, 'tokens_refreshed', {
      clientId: client.clientId,
      userId: family.userId,
      familyId: family.id,
      scope: tokens.scope,
    });
    return tokens;
  },
};
