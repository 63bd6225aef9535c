import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { verifyPassword } from '@foodshare/domain';
import { DEFAULT_DATABASE_URL, withDatabaseName } from '@foodshare/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docker/k8s/first-run/base/first-run.sh, as the Kubernetes Job and compose's `first-run` service
// run it, with this checkout's CLI in place of the image's and a database of its own.

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '..');
const SCRIPT = path.join(ROOT, 'docker', 'k8s', 'first-run', 'base', 'first-run.sh');
const CLI = `${process.execPath} --conditions=development ${path.join(ROOT, 'apps', 'cli', 'src', 'main.ts')}`;

const serverUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const databaseName = `fs_test_first_run_${process.pid}`;
const databaseUrl = withDatabaseName(serverUrl, databaseName);

const PASSWORD = 'correct horse battery staple';
const SETTINGS = {
  FIRST_ORGA_EMAIL: 'olga@food.example.org',
  FIRST_ORGA_FIRST_NAME: 'Olga',
  FIRST_ORGA_LAST_NAME: 'Ops',
  FIRST_ORGA_PASSWORD: PASSWORD,
  FIRST_CLIENT_ID: 'web',
  FIRST_CLIENT_NAME: 'Foodshare web',
  FIRST_CLIENT_REDIRECT_URI: 'https://food.example.org/callback',
  FIRST_CLIENT_SCOPES: 'openid profile email regions',
};

interface Outcome {
  code: number;
  output: string;
}

/** Runs the script as the Job does: production, the auth Secret's pepper, the settings. */
async function firstRun(settings: Record<string, string>): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run('sh', [SCRIPT], {
      timeout: 120_000,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        CLIENT_SECRET_PEPPER: 'first-run-test-pepper-of-32-bytes!',
        FOODSHARE_CLI: CLI,
        ...settings,
      },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function query<T extends pg.QueryResultRow>(sql: string, url = databaseUrl): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function orgaUsers() {
  return query<{ email: string; role: number; verified: boolean; password_hash: string }>(
    'SELECT email, role, verified, password_hash FROM users',
  );
}

beforeAll(async () => {
  await query(`CREATE DATABASE ${databaseName}`, serverUrl);
  const [node, ...args] = CLI.split(' ');
  await run(node!, [...args, 'db', 'migrate'], {
    timeout: 120_000,
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
  });
}, 180_000);

afterAll(async () => {
  await query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`, serverUrl);
});

describe('first-run.sh', () => {
  it('refuses to start without the orga password, and changes nothing', async () => {
    const { FIRST_ORGA_PASSWORD: _omitted, ...withoutPassword } = SETTINGS;
    const outcome = await firstRun(withoutPassword);
    expect(outcome.code).toBe(1);
    expect(outcome.output).toContain('first-run: FIRST_ORGA_PASSWORD is not set');
    expect(await query('SELECT id FROM regions')).toEqual([]);
  }, 60_000);

  it('creates the client administration group, its orga admin and a public client', async () => {
    const outcome = await firstRun(SETTINGS);
    expect(outcome, outcome.output).toMatchObject({ code: 0 });
    expect(outcome.output).not.toContain(PASSWORD);

    const [user, ...others] = await orgaUsers();
    expect(others).toEqual([]);
    expect(user).toMatchObject({ email: 'olga@food.example.org', role: 4, verified: true });
    expect(await verifyPassword(user!.password_hash, PASSWORD)).toBe(true);

    expect(await query('SELECT id, name, type FROM regions')).toEqual([
      { id: 6704, name: 'OAuth client administration', type: 7 },
    ]);
    expect(
      await query(
        'SELECT a.region_id FROM region_admins a JOIN users u ON u.id = a.user_id ' +
          "WHERE u.email = 'olga@food.example.org'",
      ),
    ).toEqual([{ region_id: 6704 }]);
    expect(
      await query(
        'SELECT client_id, name, confidential, secret_hash, redirect_uris, scopes, grant_types FROM oauth_clients',
      ),
    ).toEqual([
      {
        client_id: 'web',
        name: 'Foodshare web',
        confidential: false,
        secret_hash: null,
        redirect_uris: ['https://food.example.org/callback'],
        scopes: ['openid', 'profile', 'email', 'regions'],
        grant_types: ['authorization_code', 'refresh_token'],
      },
    ]);
  }, 180_000);

  it('leaves everything as it is when run again, the password included', async () => {
    const before = await orgaUsers();
    const outcome = await firstRun({ ...SETTINGS, FIRST_ORGA_PASSWORD: 'another password' });
    expect(outcome, outcome.output).toMatchObject({ code: 0 });
    expect(outcome.output).toContain('orga user olga@food.example.org: exists already');
    expect(outcome.output).toContain('public OAuth client web: exists already');
    expect(await orgaUsers()).toEqual(before);
    expect(await query('SELECT client_id FROM oauth_clients')).toEqual([{ client_id: 'web' }]);
  }, 180_000);

  it('stops at a CLI error other than an existing record', async () => {
    const before = await orgaUsers();
    const outcome = await firstRun({ ...SETTINGS, FIRST_ORGA_EMAIL: 'not-an-address' });
    expect(outcome.code).toBe(1);
    expect(outcome.output).toContain('first-run: orga user not-an-address failed');
    expect(outcome.output).toContain('"code":"INVALID_INPUT"');
    expect(outcome.output).not.toContain('public OAuth client');
    expect(await orgaUsers()).toEqual(before);
  }, 180_000);

  it("registers a native app's own scheme as the first client's redirect URI (RFC 8252 7.1)", async () => {
    const outcome = await firstRun({
      ...SETTINGS,
      FIRST_CLIENT_ID: 'app',
      FIRST_CLIENT_NAME: 'Foodshare app',
      FIRST_CLIENT_REDIRECT_URI: 'org.example.app:/oauth2redirect',
    });
    expect(outcome, outcome.output).toMatchObject({ code: 0 });
    expect(outcome.output).toContain('public OAuth client app: done');
    expect(
      await query("SELECT confidential, redirect_uris FROM oauth_clients WHERE client_id = 'app'"),
    ).toEqual([{ confidential: false, redirect_uris: ['org.example.app:/oauth2redirect'] }]);
  }, 180_000);
});
