import { OAuthClientAuditLogEntity, OAuthClientEntity } from '../entities/oauth-client.entity.ts';
import { RegionEntity } from '../entities/region.entity.ts';
import { UserEntity } from '../entities/user.entity.ts';
import { RegionType, Role } from '../enums.ts';
import type { EntityManager, MikroORM } from '../db/orm.ts';
import { AccountError } from '../accounts/account-errors.ts';
import { verifyClientSecret } from './client-secrets.ts';
import {
  clientSecretMatches,
  deleteOAuthClient,
  endPreviousOAuthClientSecret,
  PREVIOUS_CLIENT_SECRET_GRACE_MS,
  regenerateOAuthClientSecret,
  setOAuthClientActive,
  updateOAuthClient,
  type OAuthClientUpdate,
} from './oauth-client-admin.service.ts';
import { createOAuthClient, redirectUriProblemCode } from './oauth-clients.service.ts';
import { describe, expect, it, test } from '../test-support/fixtures.ts';

const PEPPER = 'test-pepper-of-sufficient-length';
/** The key-value side of ending a client's grants, which this package does not know. */
const noGrants = async () => {};

let orm: MikroORM;
let actorId: number;
let regionId: number;
let sequence = 0;

const fork = (): EntityManager => orm.em.fork();

/** PostgreSQL's clock_timestamp(), in milliseconds. */
async function databaseClock(): Promise<number> {
  const [row] = await fork().execute<{ now_ms: number }[]>(
    'select (extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms',
  );
  return Math.floor(row!.now_ms);
}

test.beforeAll(async ({ orm: fileOrm }) => {
  orm = fileOrm;
  const em = fork();
  const actor = em.create(UserEntity, {
    firstName: 'Olga',
    lastName: 'Admin',
    email: 'olga.client-admin@example.org',
    passwordHash: '$argon2id$not-a-real-hash',
    role: Role.Orga,
  });
  const region = em.create(RegionEntity, { name: 'Clientstadt', type: RegionType.City });
  await em.flush();
  actorId = actor.id;
  regionId = region.id;
});

const baseSettings: OAuthClientUpdate = {
  name: 'Some App',
  confidential: true,
  redirectUris: ['https://app.example.org/callback'],
  scopes: ['openid', 'profile'],
  grantTypes: ['authorization_code'],
  requiredRegionIds: [],
};

async function newClient(settings: Partial<OAuthClientUpdate> = {}) {
  sequence += 1;
  const clientId = `admin-test-${sequence}`;
  const { client, secret } = await createOAuthClient(
    fork(),
    { ...baseSettings, ...settings, clientId },
    { pepper: PEPPER, actorId },
  );
  return { id: client.id, clientId, secret };
}

async function reload(id: number) {
  return fork().findOne(OAuthClientEntity, { id });
}

async function auditRows(clientId: string) {
  return fork().find(OAuthClientAuditLogEntity, { clientId }, { orderBy: { id: 'asc' } });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AccountError);
  return (error as AccountError).code;
}

describe('redirectUriProblemCode', () => {
  it.each([
    ['https://app.example.org/cb', null],
    ['http://localhost:3000/cb', null],
    ['http://127.0.0.1/cb', null],
    ['http://[::1]:8080/cb', null],
    ['http://example.org/cb', 'NOT_HTTPS'],
    ['ftp://example.org/cb', 'NOT_HTTPS'],
    ['https://app.example.org/cb#fragment', 'FRAGMENT'],
    ['https://*.example.org/cb', 'WILDCARD'],
    ['/callback', 'NOT_ABSOLUTE'],
    ['https://user:pw@example.org/cb', 'CREDENTIALS'],
    ['https://example.org/a b', 'WHITE_SPACE'],
    ['', 'LENGTH'],
  ])('%s -> %s', (uri, expected) => {
    expect(redirectUriProblemCode(uri)).toBe(expected);
  });

  // RFC 8252 7.1, 8.4: a native app's own scheme, a reverse domain name, for a public client.
  const publicClient = { confidential: false };
  const confidentialClient = { confidential: true };
  it.each([
    ['org.example.app:/oauth2redirect', null],
    ['com.example.app:/cb', null],
    ['com.googleusercontent.apps.123-abc:/oauthredirect', null],
    ['com.example.app://callback/path?x=1', null],
    ['http://127.0.0.1/callback', null],
    ['https://app.example.org/cb', null],
    ['myapp:/cb', 'SCHEME_NOT_REVERSE_DOMAIN'],
    ['com.:/cb', 'SCHEME_NOT_REVERSE_DOMAIN'],
    ['com..example:/cb', 'SCHEME_NOT_REVERSE_DOMAIN'],
    ['com.-example:/cb', 'SCHEME_NOT_REVERSE_DOMAIN'],
    ['com.example+app:/cb', 'SCHEME_NOT_REVERSE_DOMAIN'],
    ['ftp://example.org/cb', 'SCHEME_NOT_REVERSE_DOMAIN'],
    ['javascript:alert(1)', 'UNSAFE_SCHEME'],
    ['JavaScript:alert(1)', 'UNSAFE_SCHEME'],
    ['data:text/html,hi', 'UNSAFE_SCHEME'],
    ['file:///etc/passwd', 'UNSAFE_SCHEME'],
    ['vbscript:msgbox', 'UNSAFE_SCHEME'],
    ['http://example.org/cb', 'NOT_HTTPS'],
    ['http://127.0.0.1.evil.com/cb', 'NOT_HTTPS'],
    ['http://127.0.0.1/cb#done', 'FRAGMENT'],
    ['http://127.0.0.1:*/cb', 'WILDCARD'],
    ['com.example.app:/cb#x', 'FRAGMENT'],
    ['com.example.app://user:pw@host/cb', 'CREDENTIALS'],
  ])('for a public client, %s -> %s', (uri, expected) => {
    expect(redirectUriProblemCode(uri, publicClient)).toBe(expected);
  });

  it('refuses an app scheme for a confidential client, and for a URI the server calls', () => {
    expect(redirectUriProblemCode('org.example.app:/oauth2redirect', confidentialClient)).toBe(
      'PRIVATE_SCHEME_CONFIDENTIAL',
    );
    expect(redirectUriProblemCode('org.example.app:/oauth2redirect')).toBe('NOT_HTTPS');
    // Loopback http stays open to confidential clients, as it was (the demo server uses it).
    expect(redirectUriProblemCode('http://localhost:9999/callback', confidentialClient)).toBeNull();
  });
});

describe('createOAuthClient with native-app redirect URIs', () => {
  it('registers a public client with an app scheme and loopback redirect URIs', async () => {
    const uris = [
      'org.example.app:/oauth2redirect',
      'http://127.0.0.1/callback',
      'http://[::1]/cb',
    ];
    const { id } = await newClient({
      confidential: false,
      redirectUris: uris,
      postLogoutRedirectUris: ['org.example.app:/logged-out'],
    });
    expect(await reload(id)).toMatchObject({
      redirectUris: uris,
      postLogoutRedirectUris: ['org.example.app:/logged-out'],
    });
  });

  it.each([
    [{ confidential: true, redirectUris: ['org.example.app:/oauth2redirect'] }, /public client/],
    [
      { confidential: true, postLogoutRedirectUris: ['org.example.app:/bye'] },
      /post-logout redirect URI.*public client/,
    ],
    [{ confidential: false, redirectUris: ['myapp:/cb'] }, /reverse/],
    [{ confidential: false, redirectUris: ['javascript:alert(1)'] }, /browser runs/],
    [{ confidential: false, redirectUris: ['http://127.0.0.1/cb#x'] }, /fragment/],
  ])('refuses %o and stores nothing', async (settings, message) => {
    const clientId = 'native-refused';
    const attempt = createOAuthClient(
      fork(),
      { ...baseSettings, ...settings, clientId },
      { pepper: PEPPER, actorId },
    );
    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_REDIRECT_URI' });
    await expect(attempt).rejects.toThrow(message);
    expect(await fork().count(OAuthClientEntity, { clientId })).toBe(0);
    expect(await auditRows(clientId)).toEqual([]);
  });

  it('refuses to turn a public client with an app scheme confidential, and changes nothing', async () => {
    const uris = ['org.example.app:/oauth2redirect'];
    const { id, clientId } = await newClient({ confidential: false, redirectUris: uris });
    const code = await refusal(
      updateOAuthClient(
        fork(),
        { id },
        { ...baseSettings, confidential: true, redirectUris: uris },
        { actorId, pepper: PEPPER },
      ),
    );
    expect(code).toBe('INVALID_REDIRECT_URI');
    expect(await reload(id)).toMatchObject({ confidential: false, secretHash: null });
    expect(await auditRows(clientId)).toHaveLength(1);
  });
});

describe('updateOAuthClient', () => {
  it('changes the settings and audits each changed field with old and new value', async () => {
    const { id, clientId } = await newClient();
    const result = await updateOAuthClient(
      fork(),
      { id },
      {
        ...baseSettings,
        name: 'Renamed App',
        scopes: ['openid', 'email'],
        requiredRegionIds: [regionId],
      },
      { actorId, pepper: PEPPER },
    );
    expect(result.changedFields.sort()).toEqual(['name', 'requiredRegionIds', 'scopes']);
    expect(result.secret).toBeNull();
    const stored = await reload(id);
    expect(stored).toMatchObject({
      name: 'Renamed App',
      scopes: ['openid', 'email'],
      requiredRegionIds: [regionId],
    });
    expect(stored?.updatedBy?.id).toBe(actorId);
    const rows = await auditRows(clientId);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update']);
    expect(rows[1]?.actor?.id).toBe(actorId);
    expect(rows[1]?.changes).toEqual({
      name: { from: 'Some App', to: 'Renamed App' },
      scopes: { from: ['openid', 'profile'], to: ['openid', 'email'] },
      requiredRegionIds: { from: [], to: [regionId] },
    });
  });

  it('writes no audit row when nothing changed', async () => {
    const { id, clientId } = await newClient();
    const result = await updateOAuthClient(fork(), { id }, baseSettings, {
      actorId,
      pepper: PEPPER,
    });
    expect(result.changedFields).toEqual([]);
    expect((await auditRows(clientId)).map((row) => row.action)).toEqual(['create']);
  });

  it('leaves everything as it was when a region does not exist', async () => {
    const { id, clientId } = await newClient();
    const code = await refusal(
      updateOAuthClient(
        fork(),
        { id },
        { ...baseSettings, name: 'Changed', requiredRegionIds: [999_999] },
        { actorId, pepper: PEPPER },
      ),
    );
    expect(code).toBe('REGION_NOT_FOUND');
    expect((await reload(id))?.name).toBe('Some App');
    expect(await auditRows(clientId)).toHaveLength(1);
  });

  it('refuses settings the create rules refuse', async () => {
    const { id } = await newClient();
    const code = await refusal(
      updateOAuthClient(
        fork(),
        { id },
        { ...baseSettings, redirectUris: ['http://example.org/cb'] },
        { actorId, pepper: PEPPER },
      ),
    );
    expect(code).toBe('INVALID_REDIRECT_URI');
  });

  it('registers post-logout redirect URIs by the redirect URI rules, and audits the change', async () => {
    const { id, clientId } = await newClient();
    expect((await reload(id))?.postLogoutRedirectUris).toEqual([]);
    const uris = ['https://app.example.org/logged-out', 'http://127.0.0.1:8400/bye'];
    await updateOAuthClient(
      fork(),
      { id },
      { ...baseSettings, postLogoutRedirectUris: uris },
      { actorId, pepper: PEPPER },
    );
    expect((await reload(id))?.postLogoutRedirectUris).toEqual(uris);
    const update = (await auditRows(clientId)).find((row) => row.action === 'update');
    expect(update?.changes).toEqual({ postLogoutRedirectUris: { from: [], to: uris } });

    const code = await refusal(
      updateOAuthClient(
        fork(),
        { id },
        { ...baseSettings, postLogoutRedirectUris: ['http://app.example.org/bye'] },
        { actorId, pepper: PEPPER },
      ),
    );
    expect(code).toBe('INVALID_REDIRECT_URI');
  });

  it('keeps the post-logout redirect URIs when an update does not name them', async () => {
    const uris = ['https://app.example.org/logged-out'];
    const { id } = await newClient({ postLogoutRedirectUris: uris });
    await updateOAuthClient(
      fork(),
      { id },
      { ...baseSettings, name: 'Renamed' },
      { actorId, pepper: PEPPER },
    );
    expect((await reload(id))?.postLogoutRedirectUris).toEqual(uris);
  });

  it('registers the PAR requirement and a back-channel logout URI, checked and audited', async () => {
    const { id, clientId } = await newClient();
    const before = await reload(id);
    expect(before?.requirePushedAuthorizationRequests).toBe(false);
    expect(before?.backchannelLogoutUri).toBeNull();
    const uri = 'https://app.example.org/backchannel-logout';
    await updateOAuthClient(
      fork(),
      { id },
      { ...baseSettings, requirePushedAuthorizationRequests: true, backchannelLogoutUri: uri },
      { actorId, pepper: PEPPER },
    );
    const after = await reload(id);
    expect(after?.requirePushedAuthorizationRequests).toBe(true);
    expect(after?.backchannelLogoutUri).toBe(uri);
    const update = (await auditRows(clientId)).find((row) => row.action === 'update');
    expect(update?.changes).toEqual({
      requirePushedAuthorizationRequests: { from: false, to: true },
      backchannelLogoutUri: { from: null, to: uri },
    });
    // An update that does not name them keeps them.
    await updateOAuthClient(
      fork(),
      { id },
      { ...baseSettings, name: 'Renamed' },
      { actorId, pepper: PEPPER },
    );
    expect((await reload(id))?.backchannelLogoutUri).toBe(uri);
    expect((await reload(id))?.requirePushedAuthorizationRequests).toBe(true);

    for (const bad of ['http://app.example.org/bc', 'https://app.example.org/bc#x']) {
      const code = await refusal(
        updateOAuthClient(
          fork(),
          { id },
          { ...baseSettings, backchannelLogoutUri: bad },
          { actorId, pepper: PEPPER },
        ),
      );
      expect(code).toBe('INVALID_REDIRECT_URI');
    }
  });

  it('keeps a back-channel URI stored before the rules were tightened, while other fields change', async () => {
    const { id } = await newClient();
    // Registered under 0.1.0, whose rules let an internal host through; delivery refuses it.
    const internal = 'https://rp.internal/bcl';
    await fork().execute('update oauth_clients set backchannel_logout_uri = ? where id = ?', [
      internal,
      id,
    ]);
    await updateOAuthClient(
      fork(),
      { id },
      { ...baseSettings, name: 'Renamed again' },
      { actorId, pepper: PEPPER },
    );
    expect(await reload(id)).toMatchObject({
      name: 'Renamed again',
      backchannelLogoutUri: internal,
    });
    // Naming another such host is refused as for a new client.
    const code = await refusal(
      updateOAuthClient(
        fork(),
        { id },
        { ...baseSettings, backchannelLogoutUri: 'https://other.internal/bcl' },
        { actorId, pepper: PEPPER },
      ),
    );
    expect(code).toBe('INVALID_REDIRECT_URI');
  });

  it('refuses an unknown client', async () => {
    const code = await refusal(
      updateOAuthClient(fork(), { clientId: 'no-such-client' }, baseSettings, {
        actorId,
        pepper: PEPPER,
      }),
    );
    expect(code).toBe('CLIENT_NOT_FOUND');
  });

  it('gives a public client turned confidential a secret, once, and audits no secret', async () => {
    const { id, clientId, secret: none } = await newClient({ confidential: false });
    expect(none).toBeNull();
    const { secret } = await updateOAuthClient(fork(), { id }, baseSettings, {
      actorId,
      pepper: PEPPER,
    });
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const stored = await reload(id);
    expect(verifyClientSecret(secret ?? '', stored?.secretHash ?? '', PEPPER)).toBe(true);
    const rows = await auditRows(clientId);
    expect(rows[1]?.changes).toEqual({
      confidential: { from: false, to: true },
      secret: 'set',
    });
    expect(JSON.stringify(rows)).not.toContain(stored?.secretHash);
  });

  it('drops the secrets of a confidential client turned public', async () => {
    const { id } = await newClient();
    await regenerateOAuthClientSecret(fork(), { id }, { actorId, pepper: PEPPER });
    await updateOAuthClient(
      fork(),
      { id },
      { ...baseSettings, confidential: false },
      { actorId, pepper: PEPPER },
    );
    expect(await reload(id)).toMatchObject({
      confidential: false,
      secretHash: null,
      previousSecretHash: null,
      previousSecretExpiresAt: null,
    });
  });
});

describe('setOAuthClientActive', () => {
  it('deactivates and activates again, auditing each change', async () => {
    const { id, clientId } = await newClient();
    expect(
      await setOAuthClientActive(fork(), { id }, false, { actorId, endGrants: noGrants }),
    ).toEqual({
      clientId,
      changed: true,
    });
    expect((await reload(id))?.active).toBe(false);
    expect(
      (await setOAuthClientActive(fork(), { id }, false, { actorId, endGrants: noGrants })).changed,
    ).toBe(false);
    expect(
      (await setOAuthClientActive(fork(), { clientId }, true, { actorId, endGrants: noGrants }))
        .changed,
    ).toBe(true);
    expect((await reload(id))?.active).toBe(true);
    const rows = await auditRows(clientId);
    expect(rows.map((row) => [row.action, row.actor?.id])).toEqual([
      ['create', actorId],
      ['deactivate', actorId],
      ['activate', actorId],
    ]);
  });

  it('ends the grants on deactivation only: before the commit, and again after it, by PostgreSQL’s clock', async () => {
    const { id, clientId } = await newClient();
    const before = await databaseClock();
    const ended: { clientId: string; at: Date; activeOutside: boolean | undefined }[] = [];
    const endGrants = async (endedId: string, at: Date) => {
      const row = await orm.em
        .fork()
        .getConnection()
        .execute<{ active: boolean }[]>('select active from oauth_clients where id = ?', [id]);
      ended.push({ clientId: endedId, at, activeOutside: row[0]?.active });
    };
    await setOAuthClientActive(fork(), { id }, false, { actorId, endGrants });
    const after = await databaseClock();
    await setOAuthClientActive(fork(), { id }, false, { actorId, endGrants });
    await setOAuthClientActive(fork(), { id }, true, { actorId, endGrants });
    // First inside the transaction (the change is not visible outside yet, a failure rolls it
    // back), then once the change has committed: a time every grant to the active client precedes.
    expect(ended).toEqual([
      { clientId, at: expect.any(Date), activeOutside: true },
      { clientId, at: expect.any(Date), activeOutside: false },
    ]);
    const [inside, committed] = ended.map((call) => call.at.getTime());
    expect(before).toBeLessThanOrEqual(inside!);
    expect(inside).toBeLessThanOrEqual(committed!);
    expect(committed).toBeLessThanOrEqual(after);
  });

  it('stays deactivated when ending the grants fails after the commit, and says so', async () => {
    const { id } = await newClient();
    let calls = 0;
    const endGrants = async () => {
      calls += 1;
      if (calls === 2) throw new Error('key-value store down');
    };
    await expect(
      setOAuthClientActive(fork(), { id }, false, { actorId, endGrants }),
    ).rejects.toThrow('key-value store down');
    expect((await reload(id))?.active).toBe(false);
  });

  it('stays active when its grants cannot be ended', async () => {
    const { id, clientId } = await newClient();
    const endGrants = () => Promise.reject(new Error('key-value store down'));
    await expect(
      setOAuthClientActive(fork(), { id }, false, { actorId, endGrants }),
    ).rejects.toThrow('key-value store down');
    expect((await reload(id))?.active).toBe(true);
    expect((await auditRows(clientId)).map((row) => row.action)).toEqual(['create']);
  });
});

describe('deleteOAuthClient', () => {
  it('removes the client and keeps an audit row with its last settings', async () => {
    const { id, clientId } = await newClient();
    expect(await deleteOAuthClient(fork(), { id }, { actorId, endGrants: noGrants })).toEqual({
      clientId,
    });
    expect(await reload(id)).toBeNull();
    const rows = await auditRows(clientId);
    expect(rows.map((row) => row.action)).toEqual(['create', 'delete']);
    expect(rows[1]?.changes).toMatchObject({ name: 'Some App', confidential: true, active: true });
  });

  it('refuses an unknown client', async () => {
    expect(
      await refusal(deleteOAuthClient(fork(), { id: 2_000_000 }, { actorId, endGrants: noGrants })),
    ).toBe('CLIENT_NOT_FOUND');
  });

  it('ends the grants of the deleted client, and keeps the client when that fails', async () => {
    const kept = await newClient();
    const failing = () => Promise.reject(new Error('key-value store down'));
    await expect(
      deleteOAuthClient(fork(), { id: kept.id }, { actorId, endGrants: failing }),
    ).rejects.toThrow('key-value store down');
    expect(await reload(kept.id)).not.toBeNull();
    expect((await auditRows(kept.clientId)).map((row) => row.action)).toEqual(['create']);

    const ended: { clientId: string; goneOutside: boolean }[] = [];
    const endGrants = async (clientId: string) => {
      ended.push({ clientId, goneOutside: (await reload(kept.id)) === null });
    };
    await deleteOAuthClient(fork(), { id: kept.id }, { actorId, endGrants });
    // Before the commit, and again after it.
    expect(ended).toEqual([
      { clientId: kept.clientId, goneOutside: false },
      { clientId: kept.clientId, goneOutside: true },
    ]);
    expect(await reload(kept.id)).toBeNull();
  });
});

describe('regenerateOAuthClientSecret', () => {
  it('accepts the new secret and, during the grace period only, the previous one', async () => {
    const { id, clientId, secret: first } = await newClient();
    const now = new Date();
    const { secret, previousSecretExpiresAt } = await regenerateOAuthClientSecret(
      fork(),
      { id },
      { actorId, pepper: PEPPER, now },
    );
    expect(secret).not.toBe(first);
    expect(previousSecretExpiresAt.getTime()).toBe(now.getTime() + PREVIOUS_CLIENT_SECRET_GRACE_MS);
    const stored = await reload(id);
    if (!stored) throw new Error('client vanished');
    expect(clientSecretMatches(stored, secret, PEPPER)).toBe(true);
    expect(clientSecretMatches(stored, first ?? '', PEPPER)).toBe(true);
    const afterGrace = new Date(previousSecretExpiresAt.getTime() + 1);
    expect(clientSecretMatches(stored, first ?? '', PEPPER, afterGrace)).toBe(false);
    expect(clientSecretMatches(stored, secret, PEPPER, afterGrace)).toBe(true);
    expect(clientSecretMatches(stored, 'f'.repeat(64), PEPPER)).toBe(false);

    const rows = await auditRows(clientId);
    expect(rows.map((row) => row.action)).toEqual(['create', 'regenerate_secret']);
    const logged = JSON.stringify(rows[1]?.changes);
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(stored.secretHash);
  });

  it('keeps two secrets at most: a second regeneration ends the first previous one', async () => {
    const { id, secret: first } = await newClient();
    const { secret: second } = await regenerateOAuthClientSecret(
      fork(),
      { id },
      { actorId, pepper: PEPPER },
    );
    const { secret: third } = await regenerateOAuthClientSecret(
      fork(),
      { id },
      { actorId, pepper: PEPPER },
    );
    const stored = await reload(id);
    if (!stored) throw new Error('client vanished');
    expect(clientSecretMatches(stored, third, PEPPER)).toBe(true);
    expect(clientSecretMatches(stored, second, PEPPER)).toBe(true);
    expect(clientSecretMatches(stored, first ?? '', PEPPER)).toBe(false);
  });

  it('serialises concurrent regenerations, so neither previous secret is lost', async () => {
    const { id } = await newClient();
    const results = await Promise.all(
      [1, 2].map(() => regenerateOAuthClientSecret(fork(), { id }, { actorId, pepper: PEPPER })),
    );
    const stored = await reload(id);
    if (!stored) throw new Error('client vanished');
    const valid = results.filter((result) => clientSecretMatches(stored, result.secret, PEPPER));
    // One is current and the other, regenerated just before it, is the previous secret.
    expect(valid).toHaveLength(2);
  });

  it('refuses a public client', async () => {
    const { id } = await newClient({ confidential: false });
    expect(
      await refusal(regenerateOAuthClientSecret(fork(), { id }, { actorId, pepper: PEPPER })),
    ).toBe('CLIENT_NOT_CONFIDENTIAL');
  });
});

describe('endPreviousOAuthClientSecret', () => {
  it('ends the previous secret at once, keeps the current one, and audits who and when', async () => {
    const { id, clientId, secret: first } = await newClient();
    const { secret: second, previousSecretExpiresAt } = await regenerateOAuthClientSecret(
      fork(),
      { id },
      { actorId, pepper: PEPPER },
    );
    const now = new Date();
    expect(await endPreviousOAuthClientSecret(fork(), { id }, { actorId, now })).toEqual({
      clientId,
      ended: true,
    });
    const stored = await reload(id);
    if (!stored) throw new Error('client vanished');
    expect(clientSecretMatches(stored, first ?? '', PEPPER)).toBe(false);
    expect(clientSecretMatches(stored, second, PEPPER)).toBe(true);
    expect(stored.previousSecretHash).toBeNull();
    expect(stored.previousSecretExpiresAt).toBeNull();
    expect(stored.updatedBy?.id).toBe(actorId);

    const rows = await auditRows(clientId);
    expect(rows.map((row) => [row.action, row.actor?.id])).toEqual([
      ['create', actorId],
      ['regenerate_secret', actorId],
      ['end_previous_secret', actorId],
    ]);
    expect(rows[2]?.changes).toEqual({
      previousSecretExpiresAt: {
        from: previousSecretExpiresAt.toISOString(),
        to: now.toISOString(),
      },
    });
  });

  it('changes and audits nothing when no previous secret is valid any more', async () => {
    const { id, clientId } = await newClient();
    // Never rotated: there is no previous secret.
    expect(await endPreviousOAuthClientSecret(fork(), { id }, { actorId })).toMatchObject({
      ended: false,
    });
    const { previousSecretExpiresAt } = await regenerateOAuthClientSecret(
      fork(),
      { id },
      { actorId, pepper: PEPPER },
    );
    // Ran out by itself: ending it again would change nothing.
    const later = new Date(previousSecretExpiresAt.getTime() + 1);
    expect(await endPreviousOAuthClientSecret(fork(), { id }, { actorId, now: later })).toEqual({
      clientId,
      ended: false,
    });
    expect((await reload(id))?.previousSecretHash).not.toBeNull();
    expect((await auditRows(clientId)).map((row) => row.action)).toEqual([
      'create',
      'regenerate_secret',
    ]);
  });

  it('refuses an unknown client', async () => {
    expect(await refusal(endPreviousOAuthClientSecret(fork(), { id: 2 ** 30 }, { actorId }))).toBe(
      'CLIENT_NOT_FOUND',
    );
  });
});

describe('a change whose audit row cannot be written', () => {
  // A trigger refuses the audit rows of some clients, as a full disk or a broken constraint
  // would: the change itself must then not be kept either.
  test.beforeAll(async () => {
    const connection = fork().getConnection();
    await connection.execute(`create or replace function refuse_test_audit() returns trigger
      language plpgsql as $$ begin raise exception 'audit row refused'; end $$`);
    await connection.execute(`create trigger refuse_test_audit before insert on oauth_client_audit_log
      for each row when (new.client_id = 'audit-fails-create'
        or (new.client_id like 'audit-fails-%' and new.action <> 'create'))
      execute function refuse_test_audit()`);
  });
  test.afterAll(async () => {
    const connection = fork().getConnection();
    await connection.execute('drop trigger refuse_test_audit on oauth_client_audit_log');
    await connection.execute('drop function refuse_test_audit()');
  });

  async function failingClient() {
    sequence += 1;
    const clientId = `audit-fails-${sequence}`;
    const { client } = await createOAuthClient(
      fork(),
      { ...baseSettings, clientId },
      { pepper: PEPPER, actorId },
    );
    return { id: client.id, clientId };
  }

  async function state(id: number) {
    const row = await reload(id);
    return row && { ...row, updatedAt: undefined };
  }

  it('is not created', async () => {
    await expect(
      createOAuthClient(
        fork(),
        { ...baseSettings, clientId: 'audit-fails-create' },
        { pepper: PEPPER, actorId },
      ),
    ).rejects.toThrow('audit row refused');
    expect(await fork().findOne(OAuthClientEntity, { clientId: 'audit-fails-create' })).toBeNull();
  });

  it.each([
    [
      'an update',
      (id: number) =>
        updateOAuthClient(
          fork(),
          { id },
          { ...baseSettings, name: 'Never saved' },
          { actorId, pepper: PEPPER },
        ),
    ],
    [
      'a deactivation',
      (id: number) => setOAuthClientActive(fork(), { id }, false, { actorId, endGrants: noGrants }),
    ],
    [
      'a deletion',
      (id: number) => deleteOAuthClient(fork(), { id }, { actorId, endGrants: noGrants }),
    ],
    [
      'a new secret',
      (id: number) => regenerateOAuthClientSecret(fork(), { id }, { actorId, pepper: PEPPER }),
    ],
  ])('rolls back %s', async (_what, change) => {
    const { id } = await failingClient();
    const before = await state(id);
    await expect(change(id)).rejects.toThrow('audit row refused');
    expect(await state(id)).toEqual(before);
  });
});
