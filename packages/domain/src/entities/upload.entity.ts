import { randomUUID } from 'node:crypto';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt } from './columns.ts';
import { UserEntity } from './user.entity.ts';

export const UploadEntity = defineEntity({
  name: 'Upload',
  tableName: 'uploads',
  properties: {
    id: p
      .uuid()
      .primary()
      .defaultRaw('gen_random_uuid()')
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(UserEntity).ref().deleteRule('cascade').index(),
    mimeType: p.string().length(100),
    size: p.integer().check('size >= 0'),
    sha256: p.string().columnType('char(64)').check("sha256 ~ '^[0-9a-f]{64}$'"),
    // The database is the file store for now; lazy so that reading upload metadata never drags the bytes along.
    content: p.blob().columnType('bytea').lazy(),
    createdAt: createdAt(),
  },
  checks: [{ name: 'uploads_size_matches_content', expression: 'size = octet_length(content)' }],
});
export type UploadEntity = InferEntity<typeof UploadEntity>;
