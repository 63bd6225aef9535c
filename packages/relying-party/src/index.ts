// A relying party that drives the auth server the way a real client does: openid-client for the
// protocol, a form browser for the login and consent pages. The auth app's conformance tests use
// it, and so do scripts outside the tests (`pnpm oidc:demo`, the cluster tests).
export { completeCodeFlow, type CodeFlowRun } from './complete-code-flow.ts';
export { completeDeviceFlow, personDecides, type DeviceFlowRun } from './complete-device-flow.ts';
export { FormBrowser, ShownPage, storeCookie, type PageAction } from './form-browser.ts';
export {
  authorizeInBrowser,
  redeem,
  relyingParty,
  startAuthorization,
  userActs,
  type ClientAuthMethod,
  type StartedAuthorization,
} from './relying-party.ts';
