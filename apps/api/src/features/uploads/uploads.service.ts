import type { EntityManager } from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';
import { type StoredUpload, storedUploadOf, uploadQuery } from './uploads.sql.ts';
import { type Caller, runSqlAsActor } from '../../shared/as-actor.ts';

/**
 * The stored bytes of an upload, or 404. Any active account may read it, so the account is read
 * in the same statement (shared/as-actor.ts): 401 for one no longer active.
 */
export async function loadUpload(
  em: EntityManager,
  caller: Caller,
  uploadId: string,
): Promise<StoredUpload> {
  const {
    rows: [row],
  } = await runSqlAsActor(em, caller, uploadQuery(uploadId));
  if (!row) throw Problem.notFound('There is no upload with this id.');
  return storedUploadOf(row);
}
