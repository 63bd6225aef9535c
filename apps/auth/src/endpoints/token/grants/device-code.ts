import { DEVICE_CODE_GRANT_TYPE } from '@foodshare/domain';
import { newTokenId } from '@foodshare/server-kit/oauth-grants';
import { USER_DENIED } from '../../../authorization/authorization-flow.ts';
import { loadTokenSubject } from '../../../claims/user-claims.ts';
import { mayHoldScope } from '../../../clients/registered-clients.ts';
import {
  accessDenied,
  authorizationPending,
  expiredToken,
  invalidGrant,
  slowDown,
} from '../../../errors/oauth-errors.ts';
import { planAccessToken, signTokens, storeTokens } from '../issue-tokens.ts';
import type { Grant } from './grant.ts';

/** For an unknown, redeemed or another client's device code alike. */
export const INVALID_DEVICE_CODE = 'Invalid device code';

/**
 * RFC 8628 3.4, 3.5: the device polls with its device code until the user decided; an approved
 * code is redeemed once (the store's atomic take) for tokens as the code grant makes them: a
 * family in the user's grant index, bound to the DPoP key of a public client's proof.
 */
export const deviceCodeGrant: Grant<'device_code'> = {
  grantType: DEVICE_CODE_GRANT_TYPE,
  requiredParams: ['device_code'],

  async handle(services, grantRequest) {
    const { request, client, params } = grantRequest;
    const { devices, families, codes, audit } = services;
    const poll = await devices.poll(params.device_code, client.clientId);
    switch (poll.kind) {
      case 'unknown':
        throw invalidGrant(INVALID_DEVICE_CODE);
      case 'expired':
        throw expiredToken();
      case 'slow_down':
        throw slowDown();
      case 'pending':
        throw authorizationPending();
      case 'denied':
        throw accessDenied(USER_DENIED);
    }
    const { authorization } = poll;
    const { approval } = authorization;
    // As at a code exchange: the scopes the client is still registered for, an active user.
    const scopes = approval.scopes.filter((scope) => mayHoldScope(client, scope));
    if (scopes.length === 0) {
      throw invalidGrant('The client is no longer registered for the granted scopes');
    }
    const subject = await loadTokenSubject(request.em, approval.userId, scopes);
    if (!subject?.active) throw invalidGrant('The user account is not active');
    // Exactly once: of concurrent polls one takes the authorization, the others find none.
    if (!(await devices.redeem(params.device_code))) throw invalidGrant(INVALID_DEVICE_CODE);
    audit(request, 'code_redeemed', { clientId: client.clientId, userId: approval.userId });

    const familyId = newTokenId();
    const family = families.begin({
      id: familyId,
      userId: approval.userId,
      clientId: client.clientId,
      scopes: approval.scopes,
      authTime: approval.authTime,
      databaseCreatedAt: subject.databaseNow,
      codeIssuedAt: approval.approvedAt,
      sid: approval.sid,
      // RFC 9449 5: a public client's refresh tokens are bound to its DPoP key.
      ...(grantRequest.dpopJkt !== null && !client.confidential
        ? { jkt: grantRequest.dpopJkt }
        : {}),
    });
    const signed = await signTokens(services, {
      family,
      begins: true,
      scopes,
      accessToken: planAccessToken(services),
      nonce: null,
      withRefreshToken: client.grantTypes.includes('refresh_token'),
      user: subject.claims,
      dpopJkt: grantRequest.dpopJkt,
    });
    // The user revoked the app (or signed out everywhere) after approving: the approval is void,
    // as a code issued before that would be (read after the family joined the grant index).
    const approved = {
      userId: approval.userId,
      clientId: client.clientId,
      issuedAt: approval.approvedAt,
    };
    const [tokens, voided] = await Promise.all([
      storeTokens(services, signed),
      codes.wasVoided(approved),
    ]);
    if (voided) {
      await families.revoke(familyId, family);
      throw invalidGrant(INVALID_DEVICE_CODE);
    }
    audit(request, 'tokens_issued', {
      clientId: client.clientId,
      userId: approval.userId,
      familyId,
      scope: tokens.scope,
    });
    return tokens;
  },
};
