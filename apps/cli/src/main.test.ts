import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OAuthClientEntity, UserEntity, hashClientSecret, verifyPassword } from '@foodshare/domain';
import { freePort, workerRedis } from '@foodshare/testing';
import { describe, expect, test } from './test-support/fixtures.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** The command line before the CLI's own arguments: node on main.ts unless given. */
  via?: { command: string; args: string[]; cwd?: string };
}

/** Runs the CLI as an operator would: its own process, its own environment. */
function runCli(databaseUrl: string, args: string[], options: RunOptions = {}): Promise<Run> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: databaseUrl,
    ...options.env,
  };
  const via = options.via ?? {
    command: process.execPath,
    args: ['--conditions=development', main],
  };
  return new Promise((resolve, reject) => {
    const child = spawn(via.command, [...via.args, ...args], {
      env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)),
      ...(via.cwd === undefined ? {} : { cwd: via.cwd }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** The CLI on this file's database. */
const it = test.extend(
  'cli',
  { scope: 'file' },
  ({ db }) =>
    (args: string[], options?: RunOptions) =>
      runCli(db.url, args, options),
);

const newUser = [
  'users',
  'create',
  '--email',
  'Hedy@Example.org',
  '--first-name',
  'Hedy',
  '--last-name',
  'Lamarr',
  '--role',
  'foodsaver',
  '--verified',
];

describe('the foodshare command', () => {
  it('creates a user and prints it as JSON', async ({ db, cli }) => {
    const run = await cli([...newUser, '--password', 'frequency-hopping', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(output).toEqual({
      id: expect.any(Number) as number,
      email: 'hedy@example.org',
      firstName: 'Hedy',
      lastName: 'Lamarr',
      role: 1,
      verified: true,
      homeRegionId: null,
    });
    const stored = await db.em().findOneOrFail(UserEntity, { email: 'hedy@example.org' });
    expect(stored.id).toBe(output.id);
    expect(await verifyPassword(stored.passwordHash, 'frequency-hopping')).toBe(true);
  });

  it('reads the password from stdin', async ({ db, cli }) => {
    const args = [...newUser, '--email', 'katherine@example.org', '--password-stdin'];
    const run = await cli(args, { input: 'orbital mechanics\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Created user \d+ <katherine@example.org> with role foodsaver, verified\.$/m,
    );
    const stored = await db.em().findOneOrFail(UserEntity, { email: 'katherine@example.org' });
    expect(await verifyPassword(stored.passwordHash, 'orbital mechanics')).toBe(true);
  });

  it('refuses a duplicate email on stderr with exit code 1', async ({ cli }) => {
    const run = await cli([...newUser, '--password', 'frequency-hopping', '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({
      error: {
        code: 'EMAIL_TAKEN',
        message: 'A user with the email address hedy@example.org already exists',
      },
    });
  });

  it('prints the secret of a confidential client once, hashed with CLIENT_SECRET_PEPPER', async ({
    db,
    cli,
  }) => {
    const run = await cli(
      [
        'clients',
        'create',
        '--client-id',
        'cli-server',
        '--name',
        'Server',
        '--confidential',
        '--redirect-uri',
        'https://server.example/callback',
        '--scope',
        'openid profile',
        '--scope',
        'email',
        '--grant',
        'authorization_code',
        '--grant',
        'refresh_token',
        '--json',
      ],
      { env: { CLIENT_SECRET_PEPPER: 'pepper of the deployment', NODE_ENV: 'production' } },
    );
    expect(run.stderr).toBe('');
    const output = JSON.parse(run.stdout) as { secret: string; scopes: string[] };
    expect(output.scopes).toEqual(['openid', 'profile', 'email']);
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-server' });
    expect(stored.secretHash).toBe(hashClientSecret(output.secret, 'pepper of the deployment'));
  });

  it('refuses a bad redirect URI in words', async ({ cli }) => {
    const run = await cli([
      'clients',
      'create',
      '--client-id',
      'bad',
      '--name',
      'Bad',
      '--redirect-uri',
      'http://bad.example/callback',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: Invalid redirect URI http:\/\/bad.example\/callback: must use https/,
    );
  });

  it("registers a native app's own scheme for a public client, and refuses it for a confidential one", async ({
    db,
    cli,
  }) => {
    const native = [
      'clients',
      'create',
      '--name',
      'Native',
      '--redirect-uri',
      'org.example.app:/oauth2redirect',
      '--redirect-uri',
      'http://127.0.0.1/callback',
      '--json',
    ];
    const created = await cli([...native, '--client-id', 'cli-native']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      clientId: 'cli-native',
      confidential: false,
      redirectUris: ['org.example.app:/oauth2redirect', 'http://127.0.0.1/callback'],
    });

    const refused = await cli([...native, '--client-id', 'cli-native-secret', '--confidential'], {
      env: { CLIENT_SECRET_PEPPER: 'cli-test-pepper-of-32-characters!' },
    });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr)).toEqual({
      error: {
        code: 'INVALID_REDIRECT_URI',
        message:
          "Invalid redirect URI org.example.app:/oauth2redirect: uses an app's own scheme, which only a public client (a native app) may register",
      },
    });
    expect(await db.em().count(OAuthClientEntity, { clientId: 'cli-native-secret' })).toBe(0);
  });

  it('registers and replaces post-logout redirect URIs from the command line', async ({
    db,
    cli,
  }) => {
    const create = await cli([
      'clients',
      'create',
      '--client-id',
      'cli-logout',
      '--name',
      'Logout',
      '--redirect-uri',
      'https://logout.example/callback',
      '--post-logout-redirect-uri',
      'https://logout.example/bye',
    ]);
    expect(create.stderr).toBe('');
    expect(create.stdout).toContain('post-logout redirect URIs: https://logout.example/bye');
    const set = await cli([
      'clients',
      'set-post-logout-uris',
      '--client-id',
      'cli-logout',
      '--post-logout-redirect-uri',
      'https://logout.example/a',
      '--post-logout-redirect-uri',
      'https://logout.example/b',
      '--json',
    ]);
    expect(set.stderr).toBe('');
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-logout' });
    expect(stored.postLogoutRedirectUris).toEqual([
      'https://logout.example/a',
      'https://logout.example/b',
    ]);
  });

  it('sets the DPoP requirement from the command line', async ({ db, cli }) => {
    const create = await cli([
      'clients',
      'create',
      '--client-id',
      'cli-dpop',
      '--name',
      'DPoP',
      '--redirect-uri',
      'https://dpop.example/callback',
      '--require-dpop',
    ]);
    expect(create.stderr).toBe('');
    expect(create.stdout).toContain('DPoP proofs: required');
    const bound = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-dpop' });
    expect(bound.requireDpop).toBe(true);
    await cli(['clients', 'set-protocol-options', '--client-id', 'cli-dpop', '--no-require-dpop']);
    const unbound = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-dpop' });
    expect(unbound.requireDpop).toBe(false);
  });

  it('sets the PAR requirement and the back-channel logout URI from the command line', async ({
    db,
    cli,
  }) => {
    const create = await cli([
      'clients',
      'create',
      '--client-id',
      'cli-par',
      '--name',
      'PAR',
      '--redirect-uri',
      'https://par.example/callback',
      '--require-par',
      '--backchannel-logout-uri',
      'https://par.example/backchannel',
    ]);
    expect(create.stderr).toBe('');
    expect(create.stdout).toContain('pushed authorization requests: required');
    expect(create.stdout).toContain('back-channel logout URI: https://par.example/backchannel');
    const cleared = await cli([
      'clients',
      'set-protocol-options',
      '--client-id',
      'cli-par',
      '--no-require-par',
      '--no-backchannel-logout-uri',
    ]);
    expect(cleared.stderr).toBe('');
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-par' });
    expect(stored.requirePushedAuthorizationRequests).toBe(false);
    expect(stored.backchannelLogoutUri).toBeNull();
    // Only what is given changes.
    await cli(['clients', 'set-protocol-options', '--client-id', 'cli-par', '--require-par']);
    const again = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-par' });
    expect(again.requirePushedAuthorizationRequests).toBe(true);
    expect(again.backchannelLogoutUri).toBeNull();
    const refused = await cli([
      'clients',
      'set-protocol-options',
      '--client-id',
      'cli-par',
      '--backchannel-logout-uri',
      'http://par.example/bc',
    ]);
    expect(refused.stderr).toContain('Invalid back-channel logout URI');
    // The server itself POSTs there: nothing inside its own network (issue 31, server-side
    // request forgery). One address in an odd notation shows the CLI applies the domain's rule;
    // backchannel-logout-uri.test.ts covers every notation (each CLI run here costs seconds).
    const inside = await cli([
      'clients',
      'set-protocol-options',
      '--client-id',
      'cli-par',
      '--backchannel-logout-uri',
      'https://0x7f000001/bcl',
    ]);
    expect(inside.stderr).toContain('Invalid back-channel logout URI');
    expect(inside.code).toBe(1);
    expect(
      (await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-par' }))
        .backchannelLogoutUri,
    ).toBeNull();
    // Unless the operator exempts the host, as for a local receiver in development.
    const allowed = await cli(
      [
        'clients',
        'set-protocol-options',
        '--client-id',
        'cli-par',
        '--backchannel-logout-uri',
        'http://127.0.0.1:4000/bcl',
      ],
      { env: { BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: '127.0.0.1' } },
    );
    expect(allowed.stderr).toBe('');
    expect(
      (await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-par' }))
        .backchannelLogoutUri,
    ).toBe('http://127.0.0.1:4000/bcl');
  });

  it('registers and changes what the consent page shows of a client, https only, and refuses markup', async ({
    db,
    cli,
  }) => {
    const create = await cli([
      'clients',
      'create',
      '--client-id',
      'cli-display',
      '--name',
      'Tafel Süd',
      '--redirect-uri',
      'https://tafel.example/callback',
      '--logo-uri',
      'https://tafel.example/logo.png',
      '--client-uri',
      'https://tafel.example/',
      '--policy-uri',
      'https://tafel.example/datenschutz',
    ]);
    expect(create.stderr).toBe('');
    expect(create.stdout).toContain('logo URI: https://tafel.example/logo.png');
    expect(create.stdout).toContain('privacy policy URI: https://tafel.example/datenschutz');
    expect(create.stdout).toContain('terms of service URI: none');
    const stored = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-display' });
    expect(stored).toMatchObject({
      logoUri: 'https://tafel.example/logo.png',
      clientUri: 'https://tafel.example/',
      policyUri: 'https://tafel.example/datenschutz',
      tosUri: null,
    });

    // Only what is given changes; --no-… removes one.
    const update = await cli([
      'clients',
      'update',
      '--client-id',
      'cli-display',
      '--tos-uri',
      'https://tafel.example/agb',
      '--no-logo-uri',
    ]);
    expect(update.stderr).toBe('');
    expect(update.stdout).toContain('Changed logoUri, tosUri of client cli-display.');
    const changed = await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-display' });
    expect(changed).toMatchObject({
      logoUri: null,
      clientUri: 'https://tafel.example/',
      policyUri: 'https://tafel.example/datenschutz',
      tosUri: 'https://tafel.example/agb',
    });

    for (const [flag, uri, message] of [
      [
        '--policy-uri',
        'javascript:alert(1)',
        'Invalid privacy policy URI javascript:alert(1): must use https',
      ],
      [
        '--logo-uri',
        'http://tafel.example/logo.png',
        'Invalid logo URI http://tafel.example/logo.png: must use https',
      ],
      ['--client-uri', 'https://tafel.example/"><script>', 'must not contain < > " \' or `'],
    ] as const) {
      const run = await cli(['clients', 'update', '--client-id', 'cli-display', flag, uri]);
      expect(run.code, uri).toBe(1);
      expect(run.stderr, uri).toContain(message);
    }
    const named = await cli([
      'clients',
      'update',
      '--client-id',
      'cli-display',
      '--name',
      '<b>Tafel</b>',
    ]);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('The client name must not contain < or >');
    expect(
      await db.em().findOneOrFail(OAuthClientEntity, { clientId: 'cli-display' }),
    ).toMatchObject({
      name: 'Tafel Süd',
      clientUri: 'https://tafel.example/',
      policyUri: 'https://tafel.example/datenschutz',
    });
  });

  it('says in one line when DATABASE_URL is missing', async ({ cli }) => {
    // In production, so that an embedded database of this checkout is never a fallback.
    const run = await cli([...newUser, '--password', 'whatever-long', '--json'], {
      env: { DATABASE_URL: undefined, NODE_ENV: 'production', CLIENT_SECRET_PEPPER: 'p' },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toMatchObject({
      error: {
        code: 'MISSING_DATABASE_URL',
        message: expect.stringMatching(/^DATABASE_URL is not set/) as string,
      },
    });
  });

  it('prints nothing but the JSON on stdout through `pnpm -s cli`', async ({ cli }) => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const run = await cli(
      [...newUser, '--email', 'ada@example.org', '--password', 'analytical-engine', '--json'],
      { via: { command: 'pnpm', args: ['-s', 'cli'], cwd: root } },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ email: 'ada@example.org', role: 1 });
  });

  it('refuses an unknown role before doing anything', async ({ cli }) => {
    const run = await cli(['users', 'set-role', 'hedy@example.org', 'emperor']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Unknown role/);
  });

  it('explains every command with --help', async ({ cli }) => {
    const run = await cli(['--help'], { env: { DATABASE_URL: undefined } });
    expect(run.code).toBe(0);
    for (const group of ['users', 'regions', 'memberships', 'admins', 'clients', 'db', 'demo']) {
      expect(run.stdout).toContain(group);
    }
    const create = await cli(['clients', 'create', '--help'], { env: { DATABASE_URL: undefined } });
    expect(create.stdout).toContain('--redirect-uri');
    expect(create.stdout).toContain('--json');
  });
});

describe('the administration commands', () => {
  it.for([
    ['users', 'list'],
    ['users', 'show'],
    ['users', 'deactivate'],
    ['users', 'reset-password'],
    ['clients', 'list'],
    ['clients', 'show'],
    ['clients', 'update'],
    ['clients', 'deactivate'],
    ['clients', 'delete'],
    ['clients', 'rotate-secret'],
    ['clients', 'end-previous-secret'],
  ])('explains %s %s with --help, which offers --json', async (command, { cli }) => {
    const run = await cli([...command, '--help'], { env: { DATABASE_URL: undefined } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: foodshare ${command.join(' ')}`);
    expect(run.stdout).toContain('--json');
  });

  it('resets a password read from stdin and lists the user as JSON', async ({ db, cli }) => {
    const redis = workerRedis('cli');
    const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix };
    const created = await cli([
      ...newUser,
      '--email',
      'grace@example.org',
      '--password',
      'cobol-compiler',
    ]);
    expect(created.code).toBe(0);
    const reset = await cli(['users', 'reset-password', 'grace@example.org', '--json'], {
      env,
      input: 'a new long password\n',
    });
    expect(reset.stderr).toBe('');
    expect(JSON.parse(reset.stdout)).toMatchObject({
      email: 'grace@example.org',
      sessionsEnded: 0,
    });
    const stored = await db.em().findOneOrFail(UserEntity, { email: 'grace@example.org' });
    expect(await verifyPassword(stored.passwordHash, 'a new long password')).toBe(true);

    const shown = await cli(['users', 'show', String(stored.id), '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: stored.id, activated: true });
  });

  it('refuses to deactivate a client while Redis is out of reach, or to delete one unconfirmed', async ({
    cli,
  }) => {
    const created = await cli([
      'clients',
      'create',
      '--client-id',
      'kept-active',
      '--name',
      'Kept',
      '--redirect-uri',
      'https://kept.example/callback',
    ]);
    expect(created.code).toBe(0);
    const run = await cli(['clients', 'deactivate', '--client-id', 'kept-active', '--json'], {
      env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'STATE_STORE_UNAVAILABLE' } });
    const unconfirmed = await cli(['clients', 'delete', '--client-id', 'kept-active', '--json']);
    expect(unconfirmed.code).toBe(1);
    expect(JSON.parse(unconfirmed.stderr)).toMatchObject({
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('--yes') as string },
    });
    const listed = await cli(['clients', 'list', '--json']);
    const clients = JSON.parse(listed.stdout) as { clientId: string; active: boolean }[];
    expect(clients.find((client) => client.clientId === 'kept-active')?.active).toBe(true);
  });

  it('reaches Redis through the sentinels the services name, refusing a malformed list', async ({
    cli,
  }) => {
    const created = await cli([
      'clients',
      'create',
      '--client-id',
      'behind-sentinels',
      '--name',
      'Behind sentinels',
      '--redirect-uri',
      'https://sentinels.example/callback',
    ]);
    expect(created.code).toBe(0);
    const deactivate = (env: Record<string, string>) =>
      cli(['clients', 'deactivate', '--client-id', 'behind-sentinels', '--json'], { env });
    const malformed = await deactivate({ REDIS_SENTINELS: 'sentinel-without-port' });
    expect(JSON.parse(malformed.stderr)).toMatchObject({
      error: {
        code: 'INVALID_INPUT',
        message: expect.stringContaining('REDIS_SENTINELS') as string,
      },
    });
    // The URL names a Redis that answers, but behind sentinels its host is not asked.
    const silent = await deactivate({
      REDIS_URL: workerRedis('cli').url,
      REDIS_SENTINELS: `127.0.0.1:${await freePort()}`,
    });
    expect(JSON.parse(silent.stderr)).toMatchObject({
      error: {
        code: 'STATE_STORE_UNAVAILABLE',
        message: expect.stringContaining('sentinels') as string,
      },
    });
  });

  it('updates and deletes a region, and removes a member, as JSON', async ({ cli }) => {
    const created = await cli([
      'regions',
      'create',
      '--name',
      'Altstadt',
      '--type',
      'city',
      '--json',
    ]);
    const { id } = JSON.parse(created.stdout) as { id: number };
    const updated = await cli(['regions', 'update', String(id), '--name', 'Neustadt', '--json']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id, name: 'Neustadt', parentId: null });
    const user = await cli(
      [...newUser.slice(0, 3), 'member@example.org', ...newUser.slice(4), '--password-stdin'],
      { input: 'long enough\n' },
    );
    expect(user.code).toBe(0);
    await cli(['memberships', 'add', 'member@example.org', String(id)]);
    const inUse = await cli(['regions', 'delete', String(id), '--yes', '--json']);
    expect(inUse.code).toBe(1);
    expect(JSON.parse(inUse.stderr)).toMatchObject({ error: { code: 'REGION_IN_USE' } });
    const removed = await cli(['memberships', 'remove', 'member@example.org', String(id)]);
    expect(removed.stdout).toContain('is no longer a member of region');
    const unconfirmed = await cli(['regions', 'delete', String(id)]);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain('--yes');
    const deleted = await cli(['regions', 'delete', String(id), '--yes', '--json']);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id, name: 'Neustadt' });
    const gone = await cli(['regions', 'show', String(id), '--json']);
    expect(JSON.parse(gone.stderr)).toMatchObject({ error: { code: 'REGION_NOT_FOUND' } });
  });
});
