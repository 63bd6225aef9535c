import {
  type Actor,
  type EntityManager,
  mayDeleteBanana,
  mayGiveBanana,
  type Role,
  WellKnownUnit,
} from '@foodshare/domain';
import {
  type Banana,
  type BananaBody,
  type BananaList,
  trimSpace,
  type UserStub,
} from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import type { Page } from '../../shared/page-query.ts';
import type { PendingBody } from '../../shared/pending-body.ts';
import { isoTimestamp, userStubJson } from '../../shared/sql.ts';

/** A banana vouches for someone, so its text must say something (docs/domain.md §3.17). */
const BANANA_MESSAGE_MIN_LENGTH = 100;

interface GiveFactsRow {
  role: Role;
  verified: boolean;
  already_given: boolean;
  sender: UserStub;
}

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
  actor: Actor,
  recipientId: number,
  body: PendingBody<BananaBody>,
): Promise<Banana> {
  const rows = await em.execute<GiveFactsRow[]>(
    `select r.role, r.verified,
            exists (select 1 from bananas b
                     where b.recipient_id = r.id and b.sender_id = s.id) as already_given,
            ${userStubJson('s')} as sender
       from users r, users s
      where r.id = ? and r.activated and s.id = ?`,
    [recipientId, actor.id],
  );
  const facts = rows[0];
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
  // The unique (recipient, sender) constraint decides between simultaneous gives: the loser
  // inserts nothing and gets the same 403 as a later attempt.
  const inserted = await em.execute<{ created_at: string }[]>(
    `insert into bananas (recipient_id, sender_id, message) values (?, ?, ?)
     on conflict (recipient_id, sender_id) do nothing
     returning created_at`,
    [recipientId, actor.id, text],
  );
  const row = inserted[0];
  if (!row) throw Problem.forbidden('BANANA_ALREADY_GIVEN', REFUSALS.BANANA_ALREADY_GIVEN);
  return { message: text, user: facts.sender, time: isoTimestamp(row.created_at) };
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
  const rows = await em.execute<{ is_it_support_admin: boolean }[]>(
    `select exists (select 1 from region_admins where region_id = ? and user_id = ?)
              as is_it_support_admin`,
    [WellKnownUnit.ItSupport, actor.id],
  );
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
  const deleted = await em.execute<{ id: number }[]>(
    'delete from bananas where recipient_id = ? and sender_id = ? returning id',
    [recipientId, senderId],
  );
  if (deleted.length === 0) throw Problem.notFound('There is no such banana.');
}

/** One page of the bananas a user received, newest first, each with its sender, in one query. */
export async function listReceivedBananas(
  em: EntityManager,
  userId: number,
  page: Page,
): Promise<BananaList> {
  const rows = await em.execute<{ bananas: { message: string; user: UserStub; time: string }[] }[]>(
    `select coalesce((
              select json_agg(p.banana order by p.created_at desc, p.id desc)
                from (select json_build_object(
                               'message', b.message, 'user', ${userStubJson('s')},
                               'time', b.created_at) as banana,
                             b.created_at, b.id
                        from bananas b join users s on s.id = b.sender_id
                       where b.recipient_id = u.id
                       order by b.created_at desc, b.id desc
                       limit ? offset ?) p), '[]'::json) as bananas
       from users u
      where u.id = ? and u.activated`,
    [page.limit, page.offset, userId],
  );
  const row = rows[0];
  if (!row) throw Problem.notFound('There is no user with this id.');
  return row.bananas.map((banana) => ({ ...banana, time: isoTimestamp(banana.time) }));
}
