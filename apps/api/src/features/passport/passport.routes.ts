import { PassportGenerationListSchema, PassportPdfSchema, ProblemSchema } from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { generatePassport, listPassportGenerations } from './passport.service.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';

export const passportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/user/current/passport',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['passport'],
        operationId: 'createPassport',
        summary: 'Create the caller’s own passport card',
        description:
          'A one-page PDF card of 83 x 53.3 mm with the full name, role, validity (today and ' +
          'three years on), `ID <userId>`, a QR code linking to the profile and the photo when ' +
          'there is one. Verified users only; every generation is recorded.',
        response: {
          200: {
            description: 'The passport card',
            content: { 'application/pdf': { schema: PassportPdfSchema } },
          },
          401: ProblemSchema,
          403: ProblemSchema,
        },
      },
    },
    async (request, reply) => {
      const { actor } = request;
      const pdf = await generatePassport(request.em, actor, app.config.BASE_URL);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="ausweis-${actor.id}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.get(
    '/user/current/passport/generations',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['passport'],
        operationId: 'getPassportGenerations',
        summary: 'The caller’s recorded passport generations, newest first',
        description: 'For the users who may create a passport: verified, with an active account.',
        response: { 200: PassportGenerationListSchema, 401: ProblemSchema, 403: ProblemSchema },
      },
    },
    async (request) => listPassportGenerations(request.em, request.actor),
  );
};
