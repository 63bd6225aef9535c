import { type Static, Type } from 'typebox';

/** Uploads are named by a UUID; avatars point at them as `/api/uploads/<uuid>`. */
export const UploadIdParamsSchema = Type.Object(
  { uploadId: Type.String({ format: 'uuid' }) },
  { title: 'UploadIdParams' },
);
export type UploadIdParams = Static<typeof UploadIdParamsSchema>;

/** The stored bytes, served with their stored media type; documented for OpenAPI only. */
export const UploadContentSchema = Type.Unsafe<Buffer>({
  title: 'UploadContent',
  type: 'string',
  format: 'binary',
});
