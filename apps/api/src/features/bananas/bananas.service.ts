import { type EntityManager, mayDeleteBanana, mayGiveBanana } from '@foodshare/domain';
import { type Banana, type BananaBody, type BananaList, trimSpace } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { Page } from '../../shared/page-query.ts';
import type { PendingBody } from '../../shared/pending-body.ts';
import { type Caller, runSqlAsActor } from '../../shared/as-actor.ts';
import { runSql } from '../../shared/sql.ts';
import {
  deleteBananaQuery,
  giveFactsQuery,
  givenBananaOf,
  insertBananaQuery,
  itSupportAdminQuery,
  receivedBananasOf,
  receivedBananasQuery,
} from './bananas.sql.ts';

/** A banana vouches for someone, so its text must say something (docs/domain.md §3.17). */
const BANANA_MESSAGE_MIN_LENGTH = 100;

const REFUSALS = {
  BANANA_FOR_SELF: 'Nobody gives themselves a banana.',
  BANANA_USER_NOT_VERIFIED: 'Only verified users give and receive bananas.',
  BANANA_ALREADY_GIVEN: 'You have given this user a banana already.',
} as const;

/** Characters as people count them (code points, like PostgreSQL's char_length), after trimming. */
function characterCount(text: string): number {
  return [...text].length;
}

export async function giveBanana(
  em: EntityManager,
  caller: Caller,
  recipientId: number,
  body: PendingBody<BananaBody>,
): Promise<Banana> {
  // The caller's account is read with the recipient's facts (shared/as-actor.ts).
  const {
    actor,
    rows: [facts],
  } = await runSqlAsActor(em, caller, giveFactsQuery(recipientId, caller.userId));
  if (!facts) throw Problem.notFound('There is no user with this id.');
  const recipient = { id: recipientId, role: facts.role, verified: facts.verified };
  const decision = mayGiveBanana(actor, { recipient, alreadyGiven: facts.already_given });
  if (!decision.allowed) throw Problem.forbidden(decision.reason, REFUSALS[decision.reason]);
  const text = trimSpace(body.validate().message);
  if (characterCount(text) < BANANA_MESSAGE_MIN_LENGTH) {
    throw Problem.unprocessable(
      'BANANA_MESSAGE_TOO_SHORT',
      `A banana message has at least ${BANANA_MESSAGE_MIN_LENGTH} characters.`,
    );
  }
  // The loser of simultaneous gives inserts nothing and gets the same 403 as a later attempt.
  const [given] = await runSql(em, insertBananaQuery(recipientId, actor.id, text));
  if (!given) throw Problem.forbidden('BANANA_ALREADY_GIVEN', REFUSALS.BANANA_ALREADY_GIVEN);
  return givenBananaOf(given, facts.sender);
}

/**
 * 403 unless the caller is the recipient, the sender or an IT support admin, decided before
 * looking for the banana (so nobody else learns who gave whom one); then 404 if there is none.
 */
export async function deleteBanana(
  em: EntityManager,
  caller: Caller,
  recipientId: number,
  senderId: number,
): Promise<void> {
  // The caller's account is read with their IT support admin role (shared/as-actor.ts).
  const { actor, rows } = await runSqlAsActor(em, caller, itSupportAdminQuery(caller.userId));
  const allowed = mayDeleteBanana(actor, {
    recipientId,
    senderId,
    isItSupportAdmin: rows[0]?.is_it_support_admin ?? false,
  });
  if (!allowed) {
    throw Problem.forbidden(
      'BANANA_DELETE_FORBIDDEN',
      'Only its recipient, its sender or IT support removes a banana.',
    );
  }
  const deleted = await runSql(em, deleteBananaQuery(recipientId, senderId));
  if (deleted.length === 0) throw Problem.notFound('There is no such banana.');
}

/** One page of the bananas a user received, newest first, each with its sender, in one query. */
export async function listReceivedBananas(
  em: EntityManager,
  caller: Caller,
  userId: number,
  page: Page,
): Promise<BananaList> {
  // Any active account may read them: the account is read in the same statement.
  const {
    rows: [row],
  } = await runSqlAsActor(em, caller, receivedBananasQuery(userId, page));
  if (!row) throw Problem.notFound('There is no user with this id.');
  return receivedBananasOf(row);
}
