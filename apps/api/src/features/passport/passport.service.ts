import { type Actor, type EntityManager, mayCreatePassport, runSql } from '@foodshare/domain';
import type { PassportGenerationList } from '@foodshare/schemas';
import { Problem } from '@foodshare/server-kit';
import { renderPassportCard } from './passport-card.ts';
import {
  generationsOf,
  generationsQuery,
  passportHolderQuery,
  recordGenerationQuery,
} from './passport.sql.ts';
import { passportValidity } from './passport-validity.ts';

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
  const [holder] = await runSql(em, passportHolderQuery(actor.id));
  if (!holder) throw Problem.accountInactive();
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
  const recorded = await runSql(em, recordGenerationQuery(holder.id, actor.id));
  if (recorded.length === 0) throw Problem.accountInactive();
  return pdf;
}

/**
 * The caller's recorded passport generations, newest first: for those who may create a
 * passport (verified, active), as the POST decides.
 */
export async function listPassportGenerations(
  em: EntityManager,
  actor: Actor,
): Promise<PassportGenerationList> {
  // The account and the caller's own generations (few rows, by user id) in one statement.
  const rows = await runSql(em, generationsQuery(actor.id));
  if (!mayCreatePassport(actor, { userId: actor.id })) {
    throw Problem.forbidden(
      'PASSPORT_FORBIDDEN',
      'Only verified users have passports, and see only their own.',
    );
  }
  return generationsOf(rows);
}
