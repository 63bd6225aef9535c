import { DEVICE_CODE_GRANT_TYPE } from '@foodshare/domain';
import { newTokenId } from '@foodshare/server-kit/oauth-grants';
import { USER_DENIED } from '../../../authorization/authorization-flow.ts';
import {
  accessDenied,
  authorizationPending,
  expiredToken,
  invalidGrant,
  slowDown,
} from '../../../errors/oauth-errors.ts';
import { beginFamily, loadGrantSubject } from './begin-family.ts';
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
  // Pending devices poll every few seconds: not from the budget exchanges and refreshes need.
  budget: 'device',

  async handle(services, grantRequest) {
    const { request, client, params } = grantRequest;
    const { devices, audit } = services;
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
    const { approval } = poll.authorization;
    const { scopes, subject } = await loadGrantSubject(grantRequest, approval);
    // Exactly once: of concurrent polls one takes the authorization, the others find none.
    if (!(await devices.redeem(params.device_code))) throw invalidGrant(INVALID_DEVICE_CODE);
    audit(request, 'device_code_redeemed', {
      clientId: client.clientId,
      userId: approval.userId,
    });
    const tokens = await beginFamily(
      services,
      grantRequest,
      { ...approval, issuedAt: approval.approvedAt },
      { familyId: newTokenId(), scopes, subject, nonce: null },
    );
    // The user revoked the app after approving: the approval is void, as a code would be.
    // (`redeemed-before` does not come: the device code was taken above.)
    if (typeof tokens === 'string') throw invalidGrant(INVALID_DEVICE_CODE);
    return tokens;
  },
};
