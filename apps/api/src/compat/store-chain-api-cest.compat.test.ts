import { WellKnownUnit } from '@foodshare/domain';
import { StoreChainReadSchema } from '@foodshare/schemas';
import type { SignedInClient } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import type { ApiApp } from '../app.ts';
import type { ApiTester } from './api-tester.ts';
import { describe, expect, it, test } from './fixtures.ts';
import { BODY_ENCODINGS, platformRequest } from './platform-client.ts';

/**
 * The platform's own API test of store chains (tests/Api/StoreChainApiCest.php), scenario by
 * scenario, for the chain read and update (rows 9 and 11), and the calls its web client makes
 * (client/src/api/chains.js). The Cest's list and create scenarios (canGetStoreChainList,
 * canGetStoreChainListPaginated, canCreateStoreChain, canNotCreateStoreChainWithEmptyName,
 * canNotCreateStoreAsUser) concern GET and POST /api/chains, which this API does not offer.
 */
describe('StoreChainApiCest', () => {
  /** Admin of the store-chain group (332). */
  let admin: SignedInClient;
  /** A foodsaver outside the group. */
  let user: SignedInClient;
  let chains: number[];
  let round = 0;

  const chainRow = async (I: ApiTester, chainId: number) =>
    (
      await I.sql<{ name: string; kams: number[] }[]>(
        `select c.name,
                array(select k.user_id from store_chain_kams k where k.chain_id = c.id
                       order by k.user_id) as kams
           from store_chains c where c.id = ?`,
        [chainId],
      )
    )[0]!;

  /** The Cest's randomStoreChain(): every field, `modificationDate` and an empty KAM list too. */
  async function randomStoreChain(I: ApiTester, adminId: number) {
    round += 1;
    const thread = await I.forumThread(WellKnownUnit.StoreChainGroup, adminId);
    return {
      name: `chain_Firma ${round} GmbH`,
      status: round % 5,
      headquartersZip: String(10_000 + round),
      headquartersCity: `Stadt ${round}`,
      headquartersCountry: 'Deutschland',
      modificationDate: '2024-05-17 12:34:56',
      allowPress: round % 2 === 0,
      notes: `Notiz ${round}`,
      commonStoreInformation: `Allgemeine Informationen zur Kette ${round}. `.repeat(4),
      kams: [],
      estimatedStoreCount: 2 + round,
      forumThread: thread,
    };
  }

  const randomChain = () => chains[round % chains.length]!;

  test.beforeEach(async ({ I, as }) => {
    const adminId = await I.user(1);
    await I.addMember(WellKnownUnit.StoreChainGroup, adminId);
    await I.addAdmin(WellKnownUnit.StoreChainGroup, adminId);
    admin = await as(adminId);
    user = await as(await I.user(1));
    chains = [];
    for (let i = 0; i < 5; i += 1) chains.push(await I.chain());
  });

  it('canGetSingleStoreChain', async ({ app, I }) => {
    const chainId = randomChain();
    const stored = (
      await I.sql<Record<string, unknown>[]>('select * from store_chains where id = ?', [chainId])
    )[0]!;
    const response = await platformRequest(app, admin, {
      method: 'GET',
      url: `/api/chains/${chainId}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      chain: {
        id: chainId,
        name: stored.name,
        status: stored.status,
        headquartersZip: stored.headquarters_zip,
        headquartersCity: stored.headquarters_city,
        allowPress: stored.allow_press,
        notes: stored.notes,
        commonStoreInformation: stored.common_store_information,
      },
    });
  });

  it('canNotGetNonExistingStoreChain', async ({ app }) => {
    const response = await platformRequest(app, admin, {
      method: 'GET',
      url: '/api/chains/999999',
    });
    expect(response.statusCode).toBe(404);
  });

  describe.each(BODY_ENCODINGS)('PATCH as %s', (encoding) => {
    it('canPatchStoreChain', async ({ app, I }) => {
      const chainId = randomChain();
      const newValues = await randomStoreChain(I, admin.userId);
      const response = await platformRequest(app, admin, {
        method: 'PATCH',
        url: `/api/chains/${chainId}`,
        body: newValues,
        encoding,
      });
      expect(response.statusCode).toBe(200);
      expect((await chainRow(I, chainId)).name).toBe(newValues.name);
      expect(Value.Check(StoreChainReadSchema, response.json())).toBe(true);
      const { modificationDate: _sent, kams: _kams, ...fields } = newValues;
      expect(response.json().chain).toMatchObject(fields);
    });

    it('canNotPatchStoreChainWithoutPermission', async ({ app, I }) => {
      const chainId = randomChain();
      const before = await chainRow(I, chainId);
      const response = await platformRequest(app, user, {
        method: 'PATCH',
        url: `/api/chains/${chainId}`,
        body: await randomStoreChain(I, admin.userId),
        encoding,
      });
      expect(response.statusCode).toBe(403);
      expect(await chainRow(I, chainId)).toEqual(before);
    });

    it('canNotPatchNonExistingStoreChain', async ({ app, I }) => {
      const response = await platformRequest(app, admin, {
        method: 'PATCH',
        url: '/api/chains/999999',
        body: await randomStoreChain(I, admin.userId),
        encoding,
      });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('the web client (client/src/api/chains.js editChain)', () => {
    const JSON_UTF8 = { 'content-type': 'application/json; charset=utf-8' };

    /** The edit form sends the chain as it read it, changed, with the KAM ids it shows. */
    async function editForm(app: ApiApp, client: SignedInClient, chainId: number, kams: number[]) {
      const read = await platformRequest(app, client, {
        method: 'GET',
        url: `/api/chains/${chainId}`,
      });
      expect(read.statusCode).toBe(200);
      const { chain } = read.json<{ chain: Record<string, unknown> & { name: string } }>();
      return { ...chain, name: `${chain.name} (geändert)`, kams };
    }

    it('saves a KAM’s edit and ignores the KAM list the form sends along', async ({
      app,
      as,
      I,
    }) => {
      const chainId = randomChain();
      const kam = await I.user(2);
      const thread = await I.forumThread(WellKnownUnit.StoreChainGroup, kam);
      await I.sql('update store_chains set forum_thread_id = ? where id = ?', [thread, chainId]);
      await I.sql('insert into store_chain_kams (chain_id, user_id) values (?, ?)', [chainId, kam]);
      const client = await as(kam);
      const body = await editForm(app, client, chainId, [kam, admin.userId]);
      const response = await platformRequest(app, client, {
        method: 'PATCH',
        url: `/api/chains/${chainId}`,
        body,
        headers: JSON_UTF8,
      });
      expect(response.statusCode).toBe(200);
      expect(await chainRow(I, chainId)).toEqual({ name: body.name, kams: [kam] });
    });

    it('lets an admin of the store-chain group replace the KAMs with the same call', async ({
      app,
      I,
    }) => {
      const chainId = randomChain();
      const thread = await I.forumThread(WellKnownUnit.StoreChainGroup, admin.userId);
      await I.sql('update store_chains set forum_thread_id = ? where id = ?', [thread, chainId]);
      const body = await editForm(app, admin, chainId, [admin.userId]);
      const response = await platformRequest(app, admin, {
        method: 'PATCH',
        url: `/api/chains/${chainId}`,
        body,
        headers: JSON_UTF8,
      });
      expect(response.statusCode).toBe(200);
      expect(await chainRow(I, chainId)).toEqual({ name: body.name, kams: [admin.userId] });
    });
  });
});
