import { ProblemSchema, UploadContentSchema, UploadIdParamsSchema } from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { loadUpload } from './uploads.service.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { matchesEtag, sendNotModified } from '../../shared/conditional-get.ts';

/** Image types a browser may show in place; anything else is offered as a download. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The validators a 304 sends as the 200 would (RFC 9110 15.4.5). */
const CACHING_HEADERS = {
  etag: Type.String({ description: 'The SHA-256 of the bytes, quoted' }),
  'cache-control': Type.String({ description: '`private, max-age=31536000, immutable`' }),
};

/**
 * The bytes under the media type they were stored with: the images above, shown in place, and
 * any other type, offered as a download (the range of all types).
 */
const UPLOAD_CONTENT = Object.fromEntries(
  [...INLINE_TYPES, '*/*'].map((type) => [type, { schema: UploadContentSchema }]),
);

export const uploadsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/uploads/:uploadId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['uploads'],
        operationId: 'getUpload',
        summary: 'The bytes of an upload (avatars are `/api/uploads/<uuid>`)',
        description:
          'For logged-in users. Served with the stored media type; an upload never changes, ' +
          'so it may be cached for a year and revalidated with its ETag.',
        params: UploadIdParamsSchema,
        response: {
          200: {
            description:
              'The stored bytes, under their stored media type: an image inline, any other ' +
              'type as an attachment',
            headers: CACHING_HEADERS,
            content: UPLOAD_CONTENT,
          },
          304: Type.Null({
            description: 'Unchanged since the ETag the client holds; no body',
            headers: CACHING_HEADERS,
          }),
          401: ProblemSchema,
          404: ProblemSchema,
        },
      },
    },
    async (request, reply) => {
      // Photos are personal data: only members of the platform see them (requireActor).
      const upload = await loadUpload(request.em, request.params.uploadId);
      const etag = `"${upload.sha256}"`;
      void reply.headers({
        etag,
        // The id names fixed bytes (a new photo is a new upload); private, as it needs a session.
        'cache-control': 'private, max-age=31536000, immutable',
        // Stored bytes are user content: never sniffed into another type, never run as a page.
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'content-disposition': INLINE_TYPES.has(upload.mimeType) ? 'inline' : 'attachment',
      });
      if (matchesEtag(request.headers['if-none-match'], etag)) return sendNotModified(reply);
      return reply.type(upload.mimeType).send(upload.content);
    },
  );
};
