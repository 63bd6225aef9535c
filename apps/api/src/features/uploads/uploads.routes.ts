import { ProblemSchema, UploadContentSchema, UploadIdParamsSchema } from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { loadUpload } from './uploads.service.ts';
import { callerOf } from '../../shared/as-actor.ts';
import { matchesEtag } from '../../shared/conditional-get.ts';

/** Image types a browser may show in place; anything else is offered as a download. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const uploadsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/uploads/:uploadId',
    {
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
            description: 'The stored bytes',
            content: { 'application/octet-stream': { schema: UploadContentSchema } },
          },
          304: Type.Null({ description: 'Unchanged since the ETag the client holds' }),
          401: ProblemSchema,
          404: ProblemSchema,
        },
      },
    },
    async (request, reply) => {
      // Photos are personal data: only members of the platform see them (the account is read
      // in the upload's own query).
      const upload = await loadUpload(request.em, callerOf(request), request.params.uploadId);
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
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
      return reply.type(upload.mimeType).send(upload.content);
    },
  );
};
