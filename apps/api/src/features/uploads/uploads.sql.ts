import type { SqlQuery } from '@foodshare/domain';

export interface StoredUpload {
  mimeType: string;
  sha256: string;
  content: Buffer;
}

interface UploadRow {
  mime_type: string;
  sha256: string;
  content: Buffer;
}

export function uploadQuery(uploadId: string): SqlQuery<UploadRow> {
  return {
    sql: 'select mime_type, sha256, content from uploads where id = ?',
    params: [uploadId],
  };
}

export function storedUploadOf(row: UploadRow): StoredUpload {
  return { mimeType: row.mime_type, sha256: row.sha256, content: row.content };
}
