import { DEMO_PASSWORD } from '@foodshare/domain';
import * as client from 'openid-client';
import { FormBrowser, type PageAction, type ShownPage } from './form-browser.ts';
import { relyingParty } from './relying-party.ts';

export interface DeviceFlowRun {
  clientId: string;
  /** The code the device showed, as RFC 8628 3.2 returned it. */
  userCode: string;
  verificationUri: string;
  /** The pages the person saw on their phone, in order (login, device, consent, the last). */
  pagesShown: string[];
  idToken: { sub: string; aud: string | string[] };
  tokenType: string;
}

/**
 * The person at the phone, for the device flow: signs in (a demo account) when asked, types the
 * device's code (or, without one, submits the code verification_uri_complete filled in), answers
 * the consent screen (allows unless told otherwise); the page after that is the last.
 */
export function personDecides(
  email: string,
  { userCode, decision = 'allow' }: { userCode?: string; decision?: 'allow' | 'deny' } = {},
) {
  return (page: ShownPage): PageAction | null => {
    if (page.kind === 'login') return page.login(email, DEMO_PASSWORD);
    if (page.kind === 'device') return page.enterUserCode(userCode ?? page.field('user_code'));
    if (page.kind === 'consent') return page.decide(decision);
    return null;
  };
}

/**
 * A device's sign-in by the device authorization grant (RFC 8628), as openid-client performs it
 * against a running server: the device asks for a code and shows it (`show`), a demo account
 * types it at the verification page and allows, and the device's poll gets the tokens. A public
 * client. Throws (with openid-client's error) at the first step that does not conform.
 */
export async function completeDeviceFlow(
  origin: string,
  clientId: string,
  email: string,
  show: (userCode: string, verificationUri: string) => void = () => {},
): Promise<DeviceFlowRun> {
  const config = await relyingParty(origin, clientId);
  const device = await client.initiateDeviceAuthorization(config, { scope: 'openid profile' });
  show(device.user_code, device.verification_uri);
  const browser = new FormBrowser(origin);
  const end = await browser.walk(
    device.verification_uri,
    personDecides(email, { userCode: device.user_code }),
  );
  if (end instanceof URL) throw new Error(`the verification left for ${end.href}`);
  if (!end.html.includes('id="device-approved"')) {
    throw new Error(`the device was not approved:\n${end.html}`);
  }
  const tokens = await client.pollDeviceAuthorizationGrant(config, device);
  const claims = tokens.claims();
  if (!claims) throw new Error('the token response carried no ID token');
  return {
    clientId,
    userCode: device.user_code,
    verificationUri: device.verification_uri,
    pagesShown: browser.pagesShown,
    idToken: { sub: claims.sub, aud: claims.aud },
    tokenType: tokens.token_type,
  };
}
