import {
  CurrentUserSchema,
  EmptyResultSchema,
  LoginBodySchema,
  ProblemSchema,
} from '@foodshare/schemas';
import { authenticate } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { loadCurrentUser } from './current-user.ts';
import { callerIdOf, requireSession } from '../../plugins/caller.ts';

const problems = {
  400: ProblemSchema,
  401: ProblemSchema,
  403: ProblemSchema,
  409: ProblemSchema,
  429: ProblemSchema,
};

export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/login',
    {
      // Login starts a session; there is no token to echo yet.
      config: { csrf: false, public: true, sessionOnly: true },
      schema: {
        tags: ['session'],
        operationId: 'login',
        summary: 'Log in: starts a session and sets its cookies',
        body: LoginBodySchema,
        response: { 200: CurrentUserSchema, ...problems },
      },
    },
    async (request, reply) => {
      const { email, password, rememberMe = false } = request.body;
      const account = await authenticate(request.em, app.loginThrottle, {
        email,
        password,
        ip: request.ip,
      });
      // A fresh id at every login: a session id planted before login is worthless after it.
      if (request.session) await app.sessions.destroy(request.session);
      const session = await app.sessions.create(account.id, { rememberMe, account });
      app.sessionCookies.set(reply, session);
      return loadCurrentUser(request.em, account.id);
    },
  );

  app.post(
    '/logout',
    {
      // Ending a session that is gone already is no error.
      config: { public: true, sessionOnly: true },
      schema: {
        tags: ['session'],
        operationId: 'logout',
        summary: 'Log out: ends the session, if there is one, and clears its cookies',
        response: { 200: EmptyResultSchema, 403: ProblemSchema },
      },
    },
    async (request, reply) => {
      const { session } = request;
      if (session) {
        await app.sessions.destroy(session);
        // The authorization server tells the applications the user signed in to (Back-Channel
        // Logout): only it holds the signing keys.
        await app.endedSessions.record(session.userId);
      }
      app.sessionCookies.clear(reply);
      return {};
    },
  );

  app.get(
    '/users/current',
    {
      onRequest: requireSession,
      schema: {
        tags: ['session'],
        operationId: 'getCurrentUser',
        summary: 'The logged-in user',
        response: { 200: CurrentUserSchema, 401: ProblemSchema },
      },
    },
    async (request) => loadCurrentUser(request.em, callerIdOf(request)),
  );
};
