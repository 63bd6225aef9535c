// A third-party application signing a user in, end to end, with a certified OpenID client
// library (openid-client): for demo-public (PKCE, no secret) and demo-confidential (PKCE and
// client_secret_basic), alice logs in and allows, the code is exchanged, the ID token checked,
// userinfo read and the refresh token rotated. Then a device signs in through demo-public by
// the device authorization grant (RFC 8628): it prints its user code, alice types it at the
// verification page and allows, and the device's poll gets the tokens.
//
//   pnpm start                 (in another terminal)
//   pnpm oidc:demo             [base URL; default as pnpm start: BASE_URL, or
//                              http://localhost:<PORT>, PORT 8080 when unset]
//
// Exits 1 at the first step that fails, with openid-client's reason; when no server answers
// at all, in one line saying how to start it.
import { completeCodeFlow, completeDeviceFlow } from '@foodshare/relying-party';
import { DEMO_CLIENT_SECRET, DemoClientId, DemoUserEmail } from '@foodshare/domain';
import { START_DEFAULT_PORT, startOrigin, startPort } from './start-settings.ts';

const origin = (
  process.argv[2] ?? startOrigin(process.env, startPort(process.env) ?? START_DEFAULT_PORT)
).replace(/\/$/, '');

// Asked first, so that a server not running is told as such rather than as a failed step.
async function serverAnswers(): Promise<boolean> {
  try {
    await fetch(`${origin}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(5_000),
    });
    return true;
  } catch {
    return false;
  }
}

if (!(await serverAnswers())) {
  process.stderr.write(
    `no server answers at ${origin}: start it with \`pnpm start\` (PORT=… if you changed it)\n`,
  );
  process.exit(1);
}

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
  const device = await completeDeviceFlow(
    origin,
    DemoClientId.public,
    DemoUserEmail.alice,
    (userCode, verificationUri) =>
      console.log(`${DemoClientId.public} (device): go to ${verificationUri}, enter ${userCode}`),
  );
  console.log(`${device.clientId} (device): signed in`);
  console.log(`  pages shown:   ${device.pagesShown.join(', ')}`);
  console.log(`  ID token:      sub ${device.idToken.sub}, aud ${String(device.idToken.aud)}`);
} catch (error) {
  console.error(`oidc-demo against ${origin} failed:`, error);
  process.exitCode = 1;
}
