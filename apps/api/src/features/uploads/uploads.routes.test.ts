import { hash } from 'node:crypto';
import {
  type ApiClient,
  describe,
  expect,
  ids,
  it,
  test,
  type UserClient,
} from '../../test-support/fixtures.ts';

const get = (uploadId: string, client: ApiClient, headers = {}) =>
  client.get(`/api/uploads/${uploadId}`, { headers });

describe('GET /api/uploads/{uploadId}', () => {
  let bob: UserClient;
  let demoAvatar: { content: Buffer; sha256: string };

  test.beforeAll(async ({ as, sql }) => {
    bob = await as('bob');
    const rows = await sql<{ content: Buffer; sha256: string }[]>(
      'select content, sha256 from uploads where id = ?',
      [ids.avatarUploadId],
    );
    demoAvatar = rows[0]!;
  });

  it('serves the avatar bytes of the demo data with their type, to any logged-in user', async () => {
    const response = await get(ids.avatarUploadId, bob);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.equals(demoAvatar.content)).toBe(true);
    expect(hash('sha256', response.rawPayload, 'hex')).toBe(demoAvatar.sha256);
    expect(response.headers['content-length']).toBe(String(demoAvatar.content.length));
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=31536000, immutable',
      'content-disposition': 'inline',
      etag: `"${demoAvatar.sha256}"`,
    });
    expect(response.headers['content-security-policy']).toContain('sandbox');
  });

  it('is where the avatar of the current user points', async ({ as }) => {
    const alice = await as('alice');
    const current = await alice.get('/api/users/current');
    const avatar = current.json().avatar as string;
    const response = await bob.get(avatar);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(demoAvatar.content)).toBe(true);
  });

  it('answers 304 to a client that holds the same version', async () => {
    const response = await get(ids.avatarUploadId, bob, {
      'if-none-match': `"${demoAvatar.sha256}"`,
    });
    expect(response.statusCode).toBe(304);
    expect(response.rawPayload.length).toBe(0);
    // No content, so neither its type nor a length; the validators as the 200 sends them.
    expect(response.headers['content-type']).toBeUndefined();
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers).toMatchObject({
      etag: `"${demoAvatar.sha256}"`,
      'cache-control': 'private, max-age=31536000, immutable',
    });
    const listed = await get(ids.avatarUploadId, bob, {
      'if-none-match': `"other", W/"${demoAvatar.sha256}"`,
    });
    expect(listed.statusCode).toBe(304);
    expect(listed.headers.etag).toBe(`"${demoAvatar.sha256}"`);
    const stale = await get(ids.avatarUploadId, bob, { 'if-none-match': '"other"' });
    expect(stale.statusCode).toBe(200);
  });

  it('offers any other type as a download, never as a page', async ({ sql }) => {
    const html = Buffer.from('<script>alert(1)</script>');
    const rows = await sql<{ id: string }[]>(
      `insert into uploads (user_id, mime_type, size, sha256, content)
       values (?, 'text/html', ?, ?, ?) returning id`,
      [ids.users.bob, html.length, hash('sha256', html, 'hex'), html],
    );
    const response = await get(rows[0]!.id, bob);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['content-disposition']).toBe('attachment');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('answers 401 without a session', async ({ anonymous }) => {
    const response = await get(ids.avatarUploadId, anonymous);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each([
    ['an unknown uuid', '00000000-0000-4000-8000-000000000000'],
    ['a malformed uuid', '5e1f0d3a-7c52-4b8e-9a61-0d3e5f7a11c'],
    ['no uuid at all', '123'],
    ['an injection attempt', "x'%20or%201=1"],
  ])('answers 404 for %s', async (_what, uploadId) => {
    const response = await get(uploadId, bob);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
