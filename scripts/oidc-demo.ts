// A third-party application signing a user in, end to end, with a certified OpenID client
// library (openid-client): for demo-public (PKCE, no secret) and demo-confidential (PKCE and
// client_secret_basic), alice logs in and allows, the code is exchanged, the ID token checked,
// userinfo read and the refresh token rotated.
//
//   pnpm start                 (in another terminal)
//   pnpm oidc:demo             [base URL, default BASE_URL or http://localhost:8080]
//
// Exits 1 at the first step that fails, with openid-client's reason.
import { completeCodeFlow } from '@foodshare/auth/conformance';
import { DEMO_CLIENT_SECRET, DemoClientId, DemoUserEmail } from '@foodshare/domain';

const origin = (process.argv[2] ?? process.env.BASE_URL ?? 'http://localhost:8080').replace(
  /\/$/,
  '',
);

const runs = [
  { clientId: DemoClientId.public, auth: { method: 'none' as const } },
  {
    clientId: DemoClientId.confidential,
    auth: { method: 'client_secret_basic' as const, secret: DEMO_CLIENT_SECRET },
  },
];

try {
  for (const { clientId, auth } of runs) {
    const run = await completeCodeFlow(origin, clientId, auth, DemoUserEmail.alice);
    console.log(`${run.clientId} (${run.method}): signed in`);
    console.log(`  pages shown:   ${run.pagesShown.join(', ')}`);
    console.log(`  ID token:      sub ${run.idToken.sub}, aud ${String(run.idToken.aud)}`);
    console.log(`  userinfo:      ${JSON.stringify(run.userinfo)}`);
    console.log(
      `  refresh token: ${run.refreshRotated ? 'rotated, old one refused' : 'NOT rotated'}`,
    );
    if (!run.refreshRotated) process.exitCode = 1;
  }
} catch (error) {
  console.error(`oidc-demo against ${origin} failed:`, error);
  process.exitCode = 1;
}
