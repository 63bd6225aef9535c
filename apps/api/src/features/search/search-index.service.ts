import {
  type Actor,
  type EntityManager,
  holdsRegionDuty,
  isOrga,
  mayReadForumThread,
  runSql,
} from '@foodshare/domain';
import type { SearchChat, SearchIndex } from '@foodshare/schemas';
import {
  searchIndexQuery,
  searchIndexVersionQuery,
  type ChatRow,
  type SearchIndexRow,
  type ThreadAccess,
} from './search-index.sql.ts';
import { searchStringOf } from './search-terms.ts';
import { isoTimestamp } from '../../shared/sql.ts';

/**
 * The version of the data the index reads, now (docs/design.md §3.12), and the caller as an
 * actor, or null when the account is no longer active.
 */
export async function currentSearchIndexVersion(
  em: EntityManager,
  userId: number,
): Promise<{ version: string; actor: Actor | null }> {
  const [row] = await runSql(em, searchIndexVersionQuery(userId));
  if (!row) throw new Error('the search index version query returned no row');
  const actor =
    row.id === null || row.role === null || row.verified === null
      ? null
      : { id: row.id, role: row.role, verified: row.verified };
  return { version: row.version, actor };
}

/**
 * The thread's relevance to a search query. The index answers no query, so every thread is
 * unscored, as on the reference platform.
 */
const UNSCORED = -1;

/** The `YYYY-MM-DD HH:MM:SS` of docs/spec.md §2.12 for mails and polls, in UTC. */
function sqlDateTime(value: string): string {
  return new Date(value).toISOString().slice(0, 19).replace('T', ' ');
}

function withSearchString<T extends { terms: (string | null)[] }>(
  raw: T,
): Omit<T, 'terms'> & { searchString: string } {
  const { terms, ...fields } = raw;
  return { ...fields, searchString: searchStringOf(terms) };
}

/**
 * A conversation without a name is called by its other members' first names, as a client
 * shows it, so that the entry has the name docs/spec.md §2.12 requires ('' when alone).
 */
function chatEntry({ sort_at: _sortAt, name, ...chat }: ChatRow): SearchChat {
  const memberNames = chat.members.map((member) => member.name);
  return {
    ...chat,
    name: name !== null && name !== '' ? name : memberNames.join(', '),
    searchString: searchStringOf([name, ...memberNames]),
    lastMessageSentAt:
      chat.lastMessageSentAt === null ? null : isoTimestamp(chat.lastMessageSentAt),
  };
}

function mayReadThread(actor: Actor, thread: ThreadAccess & { isInsideAmbassadorForum: boolean }) {
  const mine = (holds: boolean) => new Set(holds ? [actor.id] : []);
  return mayReadForumThread(actor, {
    holdsModerationDuty: holdsRegionDuty(actor, {
      delegateAdminIds: thread.has_moderation_group ? mine(thread.is_moderation_group_admin) : null,
      ambassadorIds: mine(thread.is_admin),
    }),
    isAmbassadorForum: thread.isInsideAmbassadorForum,
    isRegionMember: thread.is_member,
    isRegionAmbassador: thread.is_admin,
  });
}

/**
 * Everything the caller can search for, from their own units, teams, chats and mailboxes, and
 * the version of the data it was built from. `mailboxHost` completes the units' mailbox names
 * into addresses.
 */
export async function loadSearchIndex(
  em: EntityManager,
  actor: Actor,
  mailboxHost: string,
): Promise<{ index: SearchIndex; version: string }> {
  const rows = await runSql(em, searchIndexQuery(actor, isOrga(actor), mailboxHost));
  const row = rows[0];
  if (!row) throw new Error('the search index query returned no row');
  return { index: searchIndexOf(actor, row), version: row.version };
}

function searchIndexOf(actor: Actor, row: SearchIndexRow): SearchIndex {
  return {
    regions: row.regions.map(withSearchString),
    workingGroups: row.working_groups.map(withSearchString),
    stores: row.stores.map(withSearchString),
    foodSharePoints: row.food_share_points.map(withSearchString),
    chats: row.chats.map(chatEntry),
    threads: row.threads
      .filter((thread) => mayReadThread(actor, thread))
      .map(
        ({
          is_member: _m,
          is_admin: _a,
          has_moderation_group: _g,
          is_moderation_group_admin: _ga,
          ...thread
        }) => ({
          ...withSearchString(thread),
          lastPostSentAt: isoTimestamp(thread.lastPostSentAt),
          relevance: UNSCORED,
        }),
      ),
    users: row.users.map(withSearchString),
    mails: row.mails.map((mail) => ({
      ...withSearchString(mail),
      sentAt: sqlDateTime(mail.sentAt),
    })),
    events: row.events.map((event) => ({
      ...withSearchString(event),
      startAt: isoTimestamp(event.startAt),
      endAt: isoTimestamp(event.endAt),
    })),
    polls: row.polls.map((poll) => ({
      ...withSearchString(poll),
      startAt: sqlDateTime(poll.startAt),
      endAt: sqlDateTime(poll.endAt),
    })),
  };
}
