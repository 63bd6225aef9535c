import { openOrm, type MikroORM } from '@foodshare/domain';
import { OwnResourcesSchema } from '@foodshare/schemas';
import { signInAs } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiApp } from '../../app.ts';
import { buildTestApp } from '../../test-support/build-test-app.ts';

const ids = inject('demoIds');

describe('GET /api/resources/own', () => {
  let app: ApiApp;
  let orm: MikroORM;

  const sql = async <T = unknown>(query: string, params: unknown[] = []): Promise<T> =>
    (await orm.em.fork().execute(query, params)) as T;

  const own = async (userId: number | null) =>
    app.inject({
      method: 'GET',
      url: '/api/resources/own',
      ...(userId === null ? {} : { cookies: (await signInAs(app, userId)).cookies }),
    });

  beforeAll(async () => {
    const built = await buildTestApp();
    app = built.app;
    orm = await openOrm({ url: built.database.url });
  });

  afterAll(async () => {
    await app.close();
    await orm.close();
  });

  it("lists alice's three resources, favourite first, then newest", async () => {
    const response = await own(ids.users.alice);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Value.Check(OwnResourcesSchema, body)).toBe(true);
    const alice = {
      id: ids.users.alice,
      name: 'Alice',
      avatar: `/api/uploads/${ids.avatarUploadId}`,
      isSleeping: false,
    };
    const common = { user: alice, regionId: 3, isHomeRegion: true, isUserActive: true };
    expect(body).toEqual([
      {
        ...common,
        id: expect.any(Number),
        name: 'Lastenrad',
        description: expect.any(String),
        isPrivate: false,
        isFavorite: true,
        openness: 3,
      },
      {
        ...common,
        id: expect.any(Number),
        name: 'Einkochtopf',
        description: expect.any(String),
        isPrivate: false,
        isFavorite: false,
        openness: 5,
      },
      {
        ...common,
        id: expect.any(Number),
        name: 'Kühlbox',
        description: '40 Liter, mit Kühlakkus. Nur für Freunde.',
        isPrivate: true,
        isFavorite: false,
        openness: 2,
      },
    ]);
  });

  it('shows only the caller’s own resources, private ones included', async () => {
    const bob = (await own(ids.users.bob)).json<{ name: string }[]>();
    expect(bob.map((r) => r.name)).toEqual(['Bollerwagen']);
    expect(bob[0]).toMatchObject({ regionId: 4, isHomeRegion: true, user: { id: ids.users.bob } });
  });

  it('answers an empty list to a user without resources', async () => {
    const response = await own(ids.users.carla);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('marks a resource outside the home region, and one in a region the owner left', async () => {
    await sql('update region_memberships set active = false where region_id = 3 and user_id = ?', [
      ids.users.dana,
    ]);
    await sql(
      `insert into resources (owner_id, region_id, name, openness, created_at)
       values (?, 3, 'Waage', 1, now() - interval '1 day'), (?, 4, 'Leiter', 2, now())`,
      [ids.users.dana, ids.users.dana],
    );
    await sql('update users set sleeping = true where id = ?', [ids.users.dana]);
    const body = (await own(ids.users.dana)).json();
    expect(Value.Check(OwnResourcesSchema, body)).toBe(true);
    expect(body).toMatchObject([
      { name: 'Leiter', regionId: 4, isHomeRegion: false, isUserActive: false, description: '' },
      { name: 'Waage', regionId: 3, isHomeRegion: true, isUserActive: false },
    ]);
    expect(body[0].user).toEqual({
      id: ids.users.dana,
      name: 'Dana',
      avatar: null,
      isSleeping: true,
    });
  });

  it('answers 401 without a session, and to a deactivated account', async () => {
    const anonymous = await own(null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const cookies = (await signInAs(app, ids.users.bob)).cookies;
    await sql('update users set activated = false where id = ?', [ids.users.bob]);
    try {
      const response = await app.inject({ method: 'GET', url: '/api/resources/own', cookies });
      expect(response.statusCode).toBe(401);
    } finally {
      await sql('update users set activated = true where id = ?', [ids.users.bob]);
    }
  });
});
