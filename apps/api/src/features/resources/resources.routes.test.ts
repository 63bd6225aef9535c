import { OwnResourcesSchema } from '@foodshare/schemas';
import { Value } from 'typebox/value';
import { type ApiClient, describe, expect, ids, it } from '../../test-support/fixtures.ts';

const own = (client: ApiClient) => client.get('/api/resources/own');

describe('GET /api/resources/own', () => {
  it("lists alice's three resources, favourite first, then newest", async ({ as }) => {
    const response = await own(await as('alice'));
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

  it('shows only the caller’s own resources, private ones included', async ({ as }) => {
    const bob = (await own(await as('bob'))).json<{ name: string }[]>();
    expect(bob.map((r) => r.name)).toEqual(['Bollerwagen']);
    expect(bob[0]).toMatchObject({ regionId: 4, isHomeRegion: true, user: { id: ids.users.bob } });
  });

  it('answers an empty list to a user without resources', async ({ as }) => {
    const response = await own(await as('carla'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('marks a resource outside the home region, and one in a region the owner left', async ({
    as,
    sql,
  }) => {
    await sql('update region_memberships set active = false where region_id = 3 and user_id = ?', [
      ids.users.dana,
    ]);
    await sql(
      `insert into resources (owner_id, region_id, name, openness, created_at)
       values (?, 3, 'Waage', 1, now() - interval '1 day'), (?, 4, 'Leiter', 2, now())`,
      [ids.users.dana, ids.users.dana],
    );
    await sql('update users set sleeping = true where id = ?', [ids.users.dana]);
    const body = (await own(await as('dana'))).json();
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

  it('answers 401 without a session, and to a deactivated account', async ({
    as,
    sql,
    anonymous,
  }) => {
    const unauthenticated = await own(anonymous);
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    // Deactivated behind the session's back; a session without account facts reads it.
    const bob = await as('bob', { accountFacts: false });
    await sql('update users set activated = false where id = ?', [ids.users.bob]);
    try {
      const response = await own(bob);
      expect(response.statusCode).toBe(401);
    } finally {
      await sql('update users set activated = true where id = ?', [ids.users.bob]);
    }
  });
});
