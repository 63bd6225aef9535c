import type { EntityManager } from '@foodshare/domain';
import { Problem } from '@foodshare/server-kit';

export interface StoredUpload {
  mimeType: string;
  sha256: string;
  content: Buffer;
}

/** The stored bytes of an upload, or 404. */
export async function loadUpload(em: EntityManager, uploadId: string): Promise<StoredUpload> {
  const rows = await em.execute<{ mime_type: string; sha256: string; content: Buffer }[]>(
    'select mime_type, sha256, content from uploads where id = ?',
    [uploadId],
  );
  const row = rows[0];
  if (!row) throw Problem.notFound('There is no upload with this id.');
  return { mimeType: row.mime_type, sha256: row.sha256, content: row.content };
}
