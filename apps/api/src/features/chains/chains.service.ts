import {
  type Actor,
  type EntityManager,
  mayChangeChainKams,
  mayEditChain,
  mayReadChain,
  maySeeChainDetails,
  runSql,
} from '@foodshare/domain';
import type { StoreChainKams, StoreChainRead, StoreChainUpdateBody } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import {
  CHAIN_COLUMNS,
  chainKamsQuery,
  chainQuery,
  chainReadOf,
  chainReferencesQuery,
  type ChainRelations,
  type ChainRow,
  type ChainScalarKey,
  deleteKamsQuery,
  insertKamsQuery,
  lockChainQuery,
  updateChainQuery,
} from './chains.sql.ts';

const SCALAR_KEYS = Object.keys(CHAIN_COLUMNS) as ChainScalarKey[];
// Read back as "" where the column is null, so "" there changes nothing.
const EMPTY_WHEN_NULL: readonly ChainScalarKey[] = [
  'headquartersZip',
  'headquartersCity',
  'headquartersCountry',
  'notes',
  'commonStoreInformation',
];

/**
 * The chain, its store count, its KAMs and the actor's relations to it (store-chain group
 * member or admin, KAM) in one query; undefined for an unknown chain.
 */
async function loadChain(
  em: EntityManager,
  actor: Actor,
  chainId: number,
): Promise<ChainRow | undefined> {
  const [row] = await runSql(em, chainQuery(actor.id, chainId));
  return row;
}

/** Whether the actor sees the chain team's working material (docs/domain.md §3.9). */
function seesDetails(actor: Actor, relations: ChainRelations): boolean {
  return maySeeChainDetails(actor, {
    isStoreChainGroupMember: relations.is_group_member,
    isChainKam: relations.is_kam,
  });
}

export async function readChain(
  em: EntityManager,
  actor: Actor,
  chainId: number,
): Promise<StoreChainRead> {
  // Decided by role alone, before the lookup: a foodsharer learns nothing of which chains exist.
  if (!mayReadChain(actor)) {
    throw Problem.forbidden('CHAIN_READ_FORBIDDEN', 'Store chains are for foodsavers and above.');
  }
  const [row] = await runSql(em, chainQuery(actor.id, chainId));
  if (!row) throw Problem.notFound('There is no store chain with this id.');
  return chainReadOf(row, seesDetails(actor, row));
}

function changes(current: ChainRow, body: StoreChainUpdateBody): ChainScalarKey[] {
  return SCALAR_KEYS.filter((key) => {
    const value = body[key];
    if (value === undefined) return false;
    const stored = current[CHAIN_COLUMNS[key]];
    const before = stored === null && EMPTY_WHEN_NULL.includes(key) ? '' : stored;
    return value !== before;
  });
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const sorted = [...b].sort((x, y) => x - y);
  return a.length === b.length && [...a].sort((x, y) => x - y).every((id, i) => id === sorted[i]);
}

/** KAMs must be members of the store-chain group; the thread must be in that group's forum. */
async function checkReferences(
  em: EntityManager,
  kams: readonly number[] | undefined,
  forumThread: number | undefined,
): Promise<void> {
  const rows = await runSql(em, chainReferencesQuery(kams ?? [], forumThread));
  const { non_members: nonMembers = [], thread_ok: threadOk = false } = rows[0] ?? {};
  if (nonMembers.length > 0) {
    throw new Problem({
      status: 422,
      code: 'CHAIN_KAMS_NOT_GROUP_MEMBERS',
      title: 'Unprocessable Content',
      detail: `Key account managers must be members of the store-chain group; these are not: ${nonMembers.join(', ')}.`,
      errors: [
        {
          path: '/body/kams',
          message: `must name members of the store-chain group; not members: ${nonMembers.join(', ')}`,
        },
      ],
    });
  }
  if (forumThread !== undefined && !threadOk) {
    throw Problem.unprocessable(
      'CHAIN_FORUM_THREAD_NOT_IN_GROUP',
      "The forum thread must be a thread of the store-chain group's forum.",
    );
  }
}

/** 404 for an unknown chain, 403 unless the actor may edit it; else the chain and relations. */
function chainToEdit(actor: Actor, current: ChainRow | undefined) {
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
  return { current, relations };
}

/**
 * The route's permission check, before the body is validated (404, then 403), so a caller who
 * may not edit learns nothing from a 400. `updateChain` checks again under the chain's lock.
 */
export async function checkChainEditor(
  em: EntityManager,
  actor: Actor,
  chainId: number,
): Promise<void> {
  chainToEdit(actor, await loadChain(em, actor, chainId));
}

/**
 * Applies a patch (the route checked the caller with `checkChainEditor` first). Only orga and store-chain group admins change the KAMs; from
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
  body: StoreChainUpdateBody,
): Promise<StoreChainRead> {
  return em.transactional(async (tx) => {
    // Lock first, then read in a statement of its own: under READ COMMITTED that read sees
    // whatever a patch committed while this one waited for the lock, KAMs included.
    const locked = await runSql(tx, lockChainQuery(chainId));
    const found = locked.length > 0 ? await loadChain(tx, actor, chainId) : undefined;
    const { current, relations } = chainToEdit(actor, found);
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

    const [stamped] = await runSql(tx, updateChainQuery(chainId, changed, body));
    if (!stamped) throw new Error('the locked chain vanished');
    if (kams !== null) {
      await runSql(tx, deleteKamsQuery(chainId));
      if (kams.length > 0) await runSql(tx, insertKamsQuery(chainId, kams));
    }
    // The answer is the row read under the lock with the patch applied, not read again: no
    // other patch changes the chain row or its KAMs before the commit.
    const updated = patchedRow(current, changed, body, kams, actor.id, stamped);
    return chainReadOf(updated, seesDetails(actor, updated));
  });
}

/** `current` as the update left it: the changed columns, the new KAMs, the new stamp. */
function patchedRow(
  current: ChainRow,
  changed: readonly ChainScalarKey[],
  body: StoreChainUpdateBody,
  kams: readonly number[] | null,
  actorId: number,
  stamped: { modification_date: string },
): ChainRow {
  const row: ChainRow = { ...current, modification_date: stamped.modification_date };
  for (const key of changed) Object.assign(row, { [CHAIN_COLUMNS[key]]: body[key] });
  if (kams === null) return row;
  return {
    ...row,
    kam_ids: [...kams].sort((a, b) => a - b),
    is_kam: kams.includes(actorId),
  };
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
  const [row] = await runSql(em, chainKamsQuery(actor.id, chainId));
  if (!row) throw Problem.notFound('There is no store chain with this id.');
  if (!seesDetails(actor, row)) {
    throw Problem.forbidden(
      'CHAIN_KAMS_READ_FORBIDDEN',
      'Only orga, the store-chain group and KAMs of the chain see its key account managers.',
    );
  }
  return row.kams;
}
