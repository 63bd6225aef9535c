import { runSql } from '@foodshare/domain';
import type { EntityManager } from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';
import { type StoredUpload, storedUploadOf, uploadQuery } from './uploads.sql.ts';

/** The stored bytes of an upload, or 404. Any active account may read it. */
export async function loadUpload(em: EntityManager, uploadId: string): Promise<StoredUpload> {
  const [row] = await runSql(em, uploadQuery(uploadId));
  if (!row) throw Problem.notFound('There is no upload with this id.');
  return storedUploadOf(row);
}
