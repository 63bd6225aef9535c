import {
  type Actor,
  type EntityManager,
  mayCreatePassport,
  QuizSessionStatus,
  type Role,
} from '@foodshare/domain';
import type { PassportGenerationList, UserStub } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { renderPassportCard } from './passport-card.ts';
import { passportValidity } from './passport-validity.ts';

/** The recorded generations a user sees: enough for any real history, bounded for the query. */
export const PASSPORT_GENERATIONS_LIMIT = 100;

interface PassportHolderRow {
  id: number;
  first_name: string;
  last_name: string;
  role: Role;
  mime_type: string | null;
  content: Buffer | null;
  last_passed_at: Date | string | null;
}

/** `${BASE_URL}/profile/<id>`: the public origin, whatever host the request came in through. */
export function profileUrl(baseUrl: string, userId: number): string {
  return `${baseUrl.replace(/\/+$/, '')}/profile/${userId}`;
}

/**
 * The caller's passport card as a PDF. The holder's data is read, the card drawn and only then
 * the generation recorded: drawing takes a while and needs no database, so no connection is
 * held (let alone a transaction kept open) meanwhile, and a card that cannot be drawn is not
 * recorded. The record is written only while the account is still active.
 */
export async function generatePassport(
  em: EntityManager,
  actor: Actor,
  baseUrl: string,
  now = new Date(),
): Promise<Buffer> {
  if (!mayCreatePassport(actor, { userId: actor.id })) {
    throw Problem.forbidden(
      'PASSPORT_FORBIDDEN',
      'Only verified users get a passport, and only their own.',
    );
  }
  const rows = await em.execute<PassportHolderRow[]>(
    `select u.id, u.first_name, u.last_name, u.role, up.mime_type, up.content,
            (select max(coalesce(q.finished_at, q.started_at)) from quiz_sessions q
              where q.user_id = u.id and q.status = ?) as last_passed_at
       from users u
       left join uploads up on up.id = u.avatar_upload_id
      where u.id = ? and u.activated`,
    [QuizSessionStatus.Passed, actor.id],
  );
  const holder = rows[0];
  if (!holder) throw inactive();
  const pdf = await renderPassportCard({
    userId: holder.id,
    firstName: holder.first_name,
    lastName: holder.last_name,
    role: holder.role,
    // A verified user without a passed quiz on record (verified by hand) is vouched for from
    // the day the card is made.
    ...passportValidity(holder.last_passed_at === null ? now : new Date(holder.last_passed_at)),
    profileUrl: profileUrl(baseUrl, holder.id),
    photo:
      holder.mime_type !== null && holder.content !== null
        ? { mimeType: holder.mime_type, bytes: holder.content }
        : null,
  });
  const recorded = await em.execute<{ id: number }[]>(
    `insert into passport_generations (user_id, generated_by_id)
     select id, ? from users where id = ? and activated
     returning id`,
    [actor.id, holder.id],
  );
  if (recorded.length === 0) throw inactive();
  return pdf;
}

const inactive = () => Problem.unauthorized('Your account is no longer active.');

interface GenerationRow {
  id: number;
  created_at: string | Date;
  generated_by: UserStub | null;
}

/**
 * The caller's recorded passport generations, newest first: for those who may create a
 * passport (verified, active), as the POST decides.
 */
export async function listPassportGenerations(
  em: EntityManager,
  actor: Actor,
): Promise<PassportGenerationList> {
  if (!mayCreatePassport(actor, { userId: actor.id })) {
    throw Problem.forbidden(
      'PASSPORT_FORBIDDEN',
      'Only verified users have passports, and see only their own.',
    );
  }
  const userId = actor.id;
  const rows = await em.execute<GenerationRow[]>(
    `select g.id, g.created_at,
            case when u.id is null then null else json_build_object(
              'id', u.id,
              'name', u.first_name,
              'avatar', case when u.avatar_upload_id is null then null
                             else '/api/uploads/' || u.avatar_upload_id end,
              'isSleeping', u.sleeping) end as generated_by
       from passport_generations g
       left join users u on u.id = g.generated_by_id
      where g.user_id = ?
      order by g.created_at desc, g.id desc
      limit ${PASSPORT_GENERATIONS_LIMIT}`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    generatedBy: row.generated_by,
  }));
}
