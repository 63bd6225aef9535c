import {
  type Actor,
  type EntityManager,
  mayChangeChainKams,
  mayEditChain,
  mayReadChain,
  maySeeChainDetails,
  WellKnownUnit,
} from '@foodshare/domain';
import type { StoreChainKams, StoreChainRead, StoreChainUpdateBody } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import {
  CHAIN_RELATION_COLUMNS,
  chainRelationParams,
  type ChainRelations,
  type ChainRow,
  loadChain,
  toChainRead,
} from './chain-read.ts';
import type { PendingBody } from '../../shared/pending-body.ts';
import { userStubJson } from '../../shared/sql.ts';

type ScalarKey = Exclude<keyof StoreChainUpdateBody, 'kams'>;

/** The column of each field; the only names ever put into the SQL text. */
const COLUMNS: Readonly<Record<ScalarKey, keyof ChainRow>> = {
  name: 'name',
  status: 'status',
  headquartersZip: 'headquarters_zip',
  headquartersCity: 'headquarters_city',
  headquartersCountry: 'headquarters_country',
  allowPress: 'allow_press',
  forumThread: 'forum_thread_id',
  notes: 'notes',
  commonStoreInformation: 'common_store_information',
  estimatedStoreCount: 'estimated_store_count',
};
const SCALAR_KEYS = Object.keys(COLUMNS) as ScalarKey[];
// Read back as "" where the column is null, so "" there changes nothing.
const EMPTY_WHEN_NULL: readonly ScalarKey[] = [
  'headquartersZip',
  'headquartersCity',
  'headquartersCountry',
  'notes',
  'commonStoreInformation',
];

export async function readChain(
  em: EntityManager,
  actor: Actor,
  chainId: number,
): Promise<StoreChainRead> {
  // Decided by role alone, before the lookup: a foodsharer learns nothing of which chains exist.
  if (!mayReadChain(actor)) {
    throw Problem.forbidden('CHAIN_READ_FORBIDDEN', 'Store chains are for foodsavers and above.');
  }
  const row = await loadChain(em, actor, chainId);
  if (!row) throw Problem.notFound('There is no store chain with this id.');
  return toChainRead(actor, row);
}

function changes(current: ChainRow, body: StoreChainUpdateBody): ScalarKey[] {
  return SCALAR_KEYS.filter((key) => {
    const value = body[key];
    if (value === undefined) return false;
    const stored = current[COLUMNS[key]];
    const before = stored === null && EMPTY_WHEN_NULL.includes(key) ? '' : stored;
    return value !== before;
  });
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const sorted = [...b].sort((x, y) => x - y);
  return a.length === b.length && [...a].sort((x, y) => x - y).every((id, i) => id === sorted[i]);
}

/** `{1,2,3}`: an int[] literal of ids the schema already checked to be integers. */
function intArray(ids: readonly number[]): string {
  return `{${ids.map((id) => Math.trunc(id)).join(',')}}`;
}

/** KAMs must be members of the store-chain group; the thread must be in that group's forum. */
async function checkReferences(
  em: EntityManager,
  kams: readonly number[] | undefined,
  forumThread: number | undefined,
): Promise<void> {
  const group = WellKnownUnit.StoreChainGroup;
  const rows = await em.execute<{ non_members: number[]; thread_ok: boolean }[]>(
    `select array(select u.id from unnest(?::int[]) as u(id)
                   where not exists (select 1 from region_memberships m
                                      where m.region_id = ${group} and m.user_id = u.id
                                        and m.active)
                     and not exists (select 1 from region_admins a
                                      where a.region_id = ${group} and a.user_id = u.id)
                   order by u.id) as non_members,
            exists (select 1 from forum_threads t where t.id = ? and t.region_id = ${group})
              as thread_ok`,
    [intArray(kams ?? []), forumThread ?? 0],
  );
  const { non_members: nonMembers = [], thread_ok: threadOk = false } = rows[0] ?? {};
  if (nonMembers.length > 0) {
    throw new Problem({
      status: 422,
      code: 'CHAIN_KAMS_NOT_GROUP_MEMBERS',
      title: 'Unprocessable Content',
      detail: `Key account managers must be members of the store-chain group; these are not: ${nonMembers.join(', ')}.`,
      errors: [{ path: '/body/kams', message: `not members: ${nonMembers.join(', ')}` }],
    });
  }
  if (forumThread !== undefined && !threadOk) {
    throw Problem.unprocessable(
      'CHAIN_FORUM_THREAD_NOT_IN_GROUP',
      "The forum thread must be a thread of the store-chain group's forum.",
    );
  }
}

/**
 * Applies a patch: 404, then 403, and only then is the body judged, so a caller who may not
 * edit learns nothing from it. Only orga and store-chain group admins change the KAMs; from
 * a KAM the list is ignored and the other fields applied, since the platform's chain page
 * sends the list it shows with every save. A patch that changes nothing is a 400. The chain row is locked
 * (SELECT ... FOR UPDATE) inside the transaction that changes it, and every check runs on what
 * was read after the lock: a concurrent patch (a KAM removed, the same change made) is seen,
 * not overwritten. The chain and its KAMs change together, so the answer is the whole patch or
 * none of it.
 */
export async function updateChain(
  em: EntityManager,
  actor: Actor,
  chainId: number,
  pending: PendingBody<StoreChainUpdateBody>,
): Promise<StoreChainRead> {
  return em.transactional(async (tx) => {
    // Lock first, then read in a statement of its own: under READ COMMITTED that read sees
    // whatever a patch committed while this one waited for the lock, KAMs included.
    const locked = await tx.execute('select id from store_chains where id = ? for update', [
      chainId,
    ]);
    const current = locked.length > 0 ? await loadChain(tx, actor, chainId) : undefined;
    if (!current) throw Problem.notFound('There is no store chain with this id.');
    const relations = {
      isStoreChainGroupAdmin: current.is_group_admin,
      isChainKam: current.is_kam,
    };
    if (!mayEditChain(actor, relations)) {
      throw Problem.forbidden(
        'CHAIN_EDIT_FORBIDDEN',
        'Only orga, admins of the store-chain group and KAMs of the chain (foodsavers and above) edit it.',
      );
    }
    const body = pending.validate();
    const requestedKams = mayChangeChainKams(actor, relations) ? body.kams : undefined;
    const kams =
      requestedKams !== undefined && !sameIds(requestedKams, current.kam_ids)
        ? requestedKams
        : null;
    const changed = changes(current, body);
    if (changed.length === 0 && kams === null) {
      throw Problem.badRequest('CHAIN_UNCHANGED', 'The patch changes nothing.');
    }
    const thread = changed.includes('forumThread') ? body.forumThread : undefined;
    if (kams !== null || thread !== undefined) await checkReferences(tx, kams ?? undefined, thread);

    const assignments = changed.map((key) => `${COLUMNS[key]} = ?`);
    await tx.execute(
      `update store_chains set ${[...assignments, 'modification_date = now()'].join(', ')}
        where id = ?`,
      [...changed.map((key) => body[key]), chainId],
    );
    if (kams !== null) {
      await tx.execute('delete from store_chain_kams where chain_id = ?', [chainId]);
      if (kams.length > 0) {
        await tx.execute(
          'insert into store_chain_kams (chain_id, user_id) select ?, unnest(?::int[])',
          [chainId, intArray(kams)],
        );
      }
    }
    const updated = await loadChain(tx, actor, chainId);
    if (!updated) throw new Error('the updated chain vanished');
    return toChainRead(actor, updated);
  });
}

/**
 * The chain's key account managers as user stubs, by id. They are the chain team's working
 * material like the notes (docs/domain.md §3.9): orga, the store-chain group and the chain's KAMs.
 * A foodsharer is refused before the lookup, as for the chain itself; 404 before 403 otherwise.
 */
export async function readChainKams(
  em: EntityManager,
  actor: Actor,
  chainId: number,
): Promise<StoreChainKams> {
  if (!mayReadChain(actor)) {
    throw Problem.forbidden('CHAIN_READ_FORBIDDEN', 'Store chains are for foodsavers and above.');
  }
  const rows = await em.execute<(ChainRelations & { kams: StoreChainKams })[]>(
    `select ${CHAIN_RELATION_COLUMNS},
            coalesce((select json_agg(${userStubJson('u')} order by u.id)
                        from store_chain_kams k join users u on u.id = k.user_id
                       where k.chain_id = c.id), '[]'::json) as kams
       from store_chains c
      where c.id = ?`,
    [...chainRelationParams(actor), chainId],
  );
  const row = rows[0];
  if (!row) throw Problem.notFound('There is no store chain with this id.');
  if (
    !maySeeChainDetails(actor, {
      isStoreChainGroupMember: row.is_group_member,
      isChainKam: row.is_kam,
    })
  ) {
    throw Problem.forbidden(
      'CHAIN_KAMS_READ_FORBIDDEN',
      'Only orga, the store-chain group and KAMs of the chain see its key account managers.',
    );
  }
  return row.kams;
}
