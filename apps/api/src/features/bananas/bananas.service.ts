import {
  type Actor,
  type EntityManager,
  mayDeleteBanana,
  mayGiveBanana,
  runSql,
} from '@foodshare/domain';
import { type Banana, type BananaBody, type BananaList, trimSpace } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { Page } from '../../shared/page-query.ts';
import {
  type GiveFactsRow,
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

/** A banana the caller may give, as `checkBananaGift` found it. */
export interface BananaGift {
  recipientId: number;
  sender: GiveFactsRow['sender'];
}

/** 404 for an unknown recipient, 403 unless the caller may give them a banana. */
export async function checkBananaGift(
  em: EntityManager,
  actor: Actor,
  recipientId: number,
): Promise<BananaGift> {
  const [facts] = await runSql(em, giveFactsQuery(recipientId, actor.id));
  if (!facts) throw Problem.notFound('There is no user with this id.');
  const recipient = { id: recipientId, role: facts.role, verified: facts.verified };
  const decision = mayGiveBanana(actor, { recipient, alreadyGiven: facts.already_given });
  if (!decision.allowed) throw Problem.forbidden(decision.reason, REFUSALS[decision.reason]);
  return { recipientId, sender: facts.sender };
}

/** Gives the banana `checkBananaGift` allowed: 422 for a message under 100 characters. */
export async function giveBanana(
  em: EntityManager,
  actor: Actor,
  gift: BananaGift,
  body: BananaBody,
): Promise<Banana> {
  const { recipientId } = gift;
  const text = trimSpace(body.message);
  if (characterCount(text) < BANANA_MESSAGE_MIN_LENGTH) {
    throw Problem.unprocessable(
      'BANANA_MESSAGE_TOO_SHORT',
      `A banana message has at least ${BANANA_MESSAGE_MIN_LENGTH} characters.`,
    );
  }
  // The loser of simultaneous gives inserts nothing and gets the same 403 as a later attempt.
  const [given] = await runSql(em, insertBananaQuery(recipientId, actor.id, text));
  if (!given) throw Problem.forbidden('BANANA_ALREADY_GIVEN', REFUSALS.BANANA_ALREADY_GIVEN);
  return givenBananaOf(given, gift.sender);
}

/**
 * 403 unless the caller is the recipient, the sender or an IT support admin, decided before
 * looking for the banana (so nobody else learns who gave whom one); then 404 if there is none.
 */
export async function deleteBanana(
  em: EntityManager,
  actor: Actor,
  recipientId: number,
  senderId: number,
): Promise<void> {
  const rows = await runSql(em, itSupportAdminQuery(actor.id));
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
  actor: Actor,
  userId: number,
  page: Page,
): Promise<BananaList> {
  // Any active account may read them.
  const [row] = await runSql(em, receivedBananasQuery(userId, page));
  if (!row) throw Problem.notFound('There is no user with this id.');
  return receivedBananasOf(row);
}
