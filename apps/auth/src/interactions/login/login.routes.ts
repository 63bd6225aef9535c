import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticate, Problem } from '@foodshare/server-kit';
import type { Actor } from '@foodshare/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { advance, clientOfPending } from '../../authorization/authorization-flow.ts';
import { authorizationContext, sendOutcome } from '../../authorization/authorization-responses.ts';
import { limitInteractionsPerAddress } from '../../authorization/interaction-rate-limit.ts';
import {
  sendExpiredRequestPage,
  sendFormExpiredPage,
  sendInvalidRedirectPage,
} from '../../pages/error.page.ts';
import { formTokenMatches } from '../../pages/form-token.ts';
import { pickLocale, type Locale } from '../../pages/locale.ts';
import { messagesFor } from '../../pages/messages.ts';
import { CONNECTED_APPS_PATH, LOGIN_PATH, loginPageUrl } from '../../pages/page-paths.ts';
import { sendLoginPage } from './login.page.ts';
import { loginToken, loginTokenMatches } from './login-token.ts';
import { safeReturnPath } from './return-to.ts';

const RequestIdSchema = Type.String({ maxLength: 64 });

const ReturnToSchema = Type.String({ maxLength: 2000 });

const LoginQuerySchema = Type.Object({
  request: Type.Optional(RequestIdSchema),
  return_to: Type.Optional(ReturnToSchema),
});

const LoginFormSchema = Type.Object({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 1024 }),
  rememberMe: Type.Optional(Type.String({ maxLength: 10 })),
  request: Type.Optional(RequestIdSchema),
  return_to: Type.Optional(ReturnToSchema),
  csrf: Type.Optional(Type.String({ maxLength: 64 })),
});

const LogoutFormSchema = Type.Object({
  csrf: Type.Optional(Type.String({ maxLength: 64 })),
  // "Not you?" on the consent page: sign in again for the same authorization request.
  request: Type.Optional(RequestIdSchema),
});

/** What authenticate() refuses with, as the page says it (same words for unknown and wrong). */
function refusal(error: unknown, locale: Locale) {
  if (!(error instanceof Problem)) return null;
  const { login } = messagesFor(locale);
  switch (error.code) {
    case 'INVALID_CREDENTIALS':
      return { status: 401, reason: 'invalid_credentials', message: login.invalidCredentials };
    case 'TOO_MANY_REQUESTS': {
      const seconds = Number(error.headers?.['retry-after'] ?? 60);
      return { status: 429, reason: 'throttled', message: login.throttled(seconds), seconds };
    }
    case 'ACCOUNT_NOT_ACTIVATED':
      return { status: 403, reason: 'not_activated', message: login.notActivated };
    default:
      return null;
  }
}

/**
 * The login page of the authorization server. It starts the same server-side session as
 * POST /api/login (same store, cookies, throttle and answers), then continues the parked
 * authorization request, or shows the page named by `return_to` (the admin pages send people
 * here), or the connected apps.
 */
export const loginRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  async function pendingWithClient(request: FastifyRequest, id: string) {
    const pending = await services.authorizationRequests.find(id);
    if (!pending) return { pending: null, client: null };
    return { pending, client: await clientOfPending(request.em, pending) };
  }

  async function expiredOrInvalid(reply: FastifyReply, locale: Locale, gone: 'request' | 'client') {
    return gone === 'request'
      ? sendExpiredRequestPage(reply, locale)
      : sendInvalidRedirectPage(reply, locale, services.metrics);
  }

  app.get(
    LOGIN_PATH,
    {
      onRequest: limitInteractionsPerAddress(services),
      schema: { tags: ['interaction'], querystring: LoginQuerySchema },
    },
    async (request, reply) => {
      const locale = pickLocale(request.headers['accept-language']);
      const requestId = request.query.request;
      if (requestId === undefined) {
        const returnTo = safeReturnPath(request.query.return_to);
        if (request.session) return reply.redirect(returnTo ?? CONNECTED_APPS_PATH, 302);
        return sendLoginPage(reply, {
          locale,
          token: loginToken(app, request, reply),
          ...(returnTo === undefined ? {} : { returnTo }),
        });
      }
      const { pending, client } = await pendingWithClient(request, requestId);
      if (!pending) return expiredOrInvalid(reply, locale, 'request');
      if (!client) return expiredOrInvalid(reply, locale, 'client');
      return sendLoginPage(reply, {
        locale,
        token: loginToken(app, request, reply),
        requestId,
        clientName: client.name,
      });
    },
  );

  app.post(
    LOGIN_PATH,
    {
      // Checked below against the pre-login cookie: a form cannot send the header, and the
      // session (if any) is about to be replaced.
      config: { csrf: false },
      onRequest: limitInteractionsPerAddress(services),
      schema: { tags: ['interaction'], body: LoginFormSchema },
    },
    async (request, reply) => {
      const locale = pickLocale(request.headers['accept-language']);
      const { email, password, request: requestId } = request.body;
      const returnTo = safeReturnPath(request.body.return_to);
      const found = requestId === undefined ? null : await pendingWithClient(request, requestId);
      if (found && !found.pending) return expiredOrInvalid(reply, locale, 'request');
      if (found && !found.client) return expiredOrInvalid(reply, locale, 'client');
      const page = {
        locale,
        email,
        ...(requestId === undefined ? {} : { requestId }),
        ...(returnTo === undefined ? {} : { returnTo }),
        ...(found?.client ? { clientName: found.client.name } : {}),
      };

      if (!loginTokenMatches(app, request, request.body.csrf)) {
        return sendLoginPage(reply, {
          ...page,
          token: loginToken(app, request, reply),
          status: 403,
          error: messagesFor(locale).formExpired,
        });
      }

      let account: Actor;
      try {
        account = await authenticate(request.em, app.loginThrottle, {
          email,
          password,
          ip: request.ip,
        });
      } catch (error) {
        const refused = refusal(error, locale);
        if (!refused) throw error;
        services.audit(request, 'login_failed', {
          reason: refused.reason,
          ip: request.ip,
          ...(found?.client ? { clientId: found.client.clientId } : {}),
        });
        if (refused.seconds !== undefined) void reply.header('retry-after', refused.seconds);
        return sendLoginPage(reply, {
          ...page,
          token: loginToken(app, request, reply),
          status: refused.status,
          error: refused.message,
        });
      }

      // A fresh session id at every login: an id planted before login is worthless after it.
      if (request.session) await app.sessions.destroy(request.session);
      const userId = account.id;
      const session = await app.sessions.create(userId, {
        rememberMe: request.body.rememberMe !== undefined,
        account,
      });
      app.sessionCookies.set(reply, session);
      services.audit(request, 'login_succeeded', {
        userId,
        ip: request.ip,
        ...(found?.client ? { clientId: found.client.clientId } : {}),
      });

      if (!found?.pending || !found.client) {
        return reply.redirect(returnTo ?? CONNECTED_APPS_PATH, 303);
      }
      const pending = await services.authorizationRequests.recordLogin(
        found.pending.id,
        session.id,
      );
      if (!pending) return sendExpiredRequestPage(reply, locale);
      const outcome = await advance(
        authorizationContext(services, request),
        found.client,
        pending,
        session,
      );
      return sendOutcome(services, reply, outcome, { target: pending, afterPost: true, locale });
    },
  );

  app.post(
    '/logout',
    {
      // The form carries the session's token in a field instead of the header.
      config: { csrf: false },
      schema: { tags: ['interaction'], body: LogoutFormSchema },
    },
    async (request, reply) => {
      const { session } = request;
      if (session) {
        if (!formTokenMatches(session.csrfToken, request.body.csrf)) {
          return sendFormExpiredPage(reply, pickLocale(request.headers['accept-language']));
        }
        await app.sessions.destroy(session);
        // Back-Channel Logout 1.0 (docs/oauth.md §9.2), in the background.
        services.backchannelLogout.userLoggedOut(session.userId);
      }
      app.sessionCookies.clear(reply);
      return reply.redirect(loginPageUrl(request.body.request), 303);
    },
  );
};
