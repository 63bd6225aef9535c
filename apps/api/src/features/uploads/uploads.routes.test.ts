import { createHash } from 'node:crypto';
import { openOrm, type MikroORM } from '@foodshare/domain';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';

const ids = inject('demoIds');

describe('GET /api/uploads/{uploadId}', () => {
  let app: ApiApp;
  let orm: MikroORM;
  let bob: SignedInClient;
  let demoAvatar: { content: Buffer; sha256: string };

  const get = (uploadId: string, client: SignedInClient | null, headers = {}) =>
    app.inject({
      method: 'GET',
      url: `/api/uploads/${uploadId}`,
      headers,
      ...(client ? { cookies: client.cookies } : {}),
    });

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
    bob = await signInAs(app, ids.users.bob);
    const rows = await orm.em
      .fork()
      .execute<{ content: Buffer; sha256: string }[]>(
        'select content, sha256 from uploads where id = ?',
        [ids.avatarUploadId],
      );
    demoAvatar = rows[0]!;
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  it('serves the avatar bytes of the demo data with their type, to any logged-in user', async () => {
    const response = await get(ids.avatarUploadId, bob);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.equals(demoAvatar.content)).toBe(true);
    expect(createHash('sha256').update(response.rawPayload).digest('hex')).toBe(demoAvatar.sha256);
    expect(response.headers['content-length']).toBe(String(demoAvatar.content.length));
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=31536000, immutable',
      'content-disposition': 'inline',
      etag: `"${demoAvatar.sha256}"`,
    });
    expect(response.headers['content-security-policy']).toContain('sandbox');
  });

  it('is where the avatar of the current user points', async () => {
    const alice = await signInAs(app, ids.users.alice);
    const current = await app.inject({
      method: 'GET',
      url: '/api/users/current',
      cookies: alice.cookies,
    });
    const avatar = current.json().avatar as string;
    const response = await app.inject({ method: 'GET', url: avatar, cookies: bob.cookies });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(demoAvatar.content)).toBe(true);
  });

  it('answers 304 to a client that holds the same version', async () => {
    const response = await get(ids.avatarUploadId, bob, {
      'if-none-match': `"${demoAvatar.sha256}"`,
    });
    expect(response.statusCode).toBe(304);
    expect(response.rawPayload.length).toBe(0);
    const listed = await get(ids.avatarUploadId, bob, {
      'if-none-match': `"other", W/"${demoAvatar.sha256}"`,
    });
    expect(listed.statusCode).toBe(304);
    expect(listed.headers.etag).toBe(`"${demoAvatar.sha256}"`);
    const stale = await get(ids.avatarUploadId, bob, { 'if-none-match': '"other"' });
    expect(stale.statusCode).toBe(200);
  });

  it('offers any other type as a download, never as a page', async () => {
    const html = Buffer.from('<script>alert(1)</script>');
    const rows = await orm.em.fork().execute<{ id: string }[]>(
      `insert into uploads (user_id, mime_type, size, sha256, content)
       values (?, 'text/html', ?, ?, ?) returning id`,
      [ids.users.bob, html.length, createHash('sha256').update(html).digest('hex'), html],
    );
    const response = await get(rows[0]!.id, bob);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['content-disposition']).toBe('attachment');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('answers 401 without a session', async () => {
    const response = await get(ids.avatarUploadId, null);
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
