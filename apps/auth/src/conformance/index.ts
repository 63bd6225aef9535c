// A relying party for scripts outside the tests (`pnpm oidc:demo`, the cluster tests); not part
// of the server.
export { completeCodeFlow, type CodeFlowRun } from './complete-code-flow.ts';
export { FormBrowser, ShownPage } from './form-browser.ts';
export {
  authorizeInBrowser,
  relyingParty,
  startAuthorization,
  type StartedAuthorization,
} from './relying-party.ts';
