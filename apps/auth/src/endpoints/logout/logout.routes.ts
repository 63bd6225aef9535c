import type { AuthServices } from '../../auth-services.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientRedirectUrl } from '../../authorization/authorization-responses.ts';
import { limitInteractionsPerAddress } from '../../authorization/interaction-rate-limit.ts';
import { sendFormExpiredPage } from '../../pages/error.page.ts';
import { formTokenMatches } from '../../pages/form-token.ts';
import { pickUiLocale, type Locale } from '../../pages/locale.ts';
import {
  LogoutConfirmationSchema,
  LogoutParamsSchema,
  present,
  type LogoutParams,
} from './logout-params.ts';
import {
  LOGOUT_CONFIRM_PATH,
  LOGOUT_PATH,
  sendInvalidLogoutPage,
  sendLoggedOutPage,
  sendLogoutConfirmationPage,
} from './logout.page.ts';
import { checkLogoutRequest, type CheckedLogout } from './logout-request.ts';

/** The logout request as a GET of the end_session_endpoint, with the parameters it knows. */
function asGet(params: LogoutParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (name in LogoutParamsSchema.properties && typeof value === 'string')
      query.append(name, value);
  }
  return `${LOGOUT_PATH}?${query.toString()}`;
}

/**
 * The end_session_endpoint of OpenID Connect RP-Initiated Logout 1.0 (docs/oauth.md §7). The
 * session is the one the REST service reads too (same store, same cookie), so ending it here
 * logs the user out of both.
 */
export const logoutRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  /** Ends the session, if any, and leaves: to the client's registered URI, or our own page. */
  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    checked: CheckedLogout,
    locale: Locale,
  ) {
    const { session } = request;
    if (session) {
      await app.sessions.destroy(session);
      // Back-Channel Logout 1.0 (docs/oauth.md §9.2): in the background, never delaying this.
      services.backchannelLogout.userLoggedOut(session.userId);
      services.audit(request, 'logout', {
        userId: session.userId,
        ...(checked.client ? { clientId: checked.client.clientId } : {}),
      });
    }
    app.sessionCookies.clear(reply);
    if (checked.redirectUri === null) return sendLoggedOutPage(reply, locale);
    // §3: state goes back as given, so the client can match the answer to its request.
    const target =
      checked.state === null
        ? checked.redirectUri
        : clientRedirectUrl(checked.redirectUri, { state: checked.state });
    return reply.redirect(target, 303);
  }

  async function endSession(request: FastifyRequest, reply: FastifyReply, params: LogoutParams) {
    const locale = pickUiLocale(present(params.ui_locales), request.headers['accept-language']);
    const checked = await checkLogoutRequest(services, request.em, {
      idTokenHint: params.id_token_hint,
      clientId: params.client_id,
      postLogoutRedirectUri: params.post_logout_redirect_uri,
      state: params.state,
    });
    if (!checked.ok) return sendInvalidLogoutPage(reply, locale, checked.refusal, services.metrics);
    const { session } = request;
    // No session: nothing to end, and leaving for a registered URI harms nobody. A hint naming
    // the logged-in user proves the request comes from a client that user signed in to (§2).
    if (!session || checked.hintSubject === String(session.userId)) {
      return finish(request, reply, checked, locale);
    }
    return sendLogoutConfirmationPage(reply, {
      locale,
      token: session.csrfToken,
      clientName: checked.client?.name ?? null,
      fields: {
        client_id: checked.client?.clientId ?? null,
        post_logout_redirect_uri: checked.redirectUri,
        state: checked.state,
        ui_locales: present(params.ui_locales) ?? null,
      },
    });
  }

  // §2: the OP supports both GET and POST at the end_session_endpoint. A relying party's
  // cross-site form cannot carry our CSRF token: without a matching hint it only gets a page.
  const options = {
    config: { csrf: false },
    onRequest: limitInteractionsPerAddress(services),
  };
  app.get(
    LOGOUT_PATH,
    { ...options, schema: { tags: ['oauth'], querystring: LogoutParamsSchema } },
    (request, reply) => endSession(request, reply, request.query),
  );
  app.post(
    LOGOUT_PATH,
    { ...options, schema: { tags: ['oauth'], body: LogoutParamsSchema } },
    (request, reply) => {
      // A relying party's form posts cross-site, and the session cookie is SameSite=Lax
      // (docs/design.md §2.2): the browser leaves it out, so the session cannot be seen here.
      // The same request as a GET is a top-level navigation, which carries it.
      if (!request.session) return reply.redirect(asGet(request.body), 303);
      return endSession(request, reply, request.body);
    },
  );

  app.post(
    LOGOUT_CONFIRM_PATH,
    {
      // The form carries the session's token in a field instead of the header.
      ...options,
      schema: { tags: ['interaction'], body: LogoutConfirmationSchema },
    },
    async (request, reply) => {
      const { body } = request;
      const locale = pickUiLocale(present(body.ui_locales), request.headers['accept-language']);
      const { session } = request;
      if (session && !formTokenMatches(session.csrfToken, body.csrf)) {
        return sendFormExpiredPage(reply, locale);
      }
      // Checked again: the hidden fields came back from the browser.
      const checked = await checkLogoutRequest(services, request.em, {
        clientId: body.client_id,
        postLogoutRedirectUri: body.post_logout_redirect_uri,
        state: body.state,
      });
      if (!checked.ok)
        return sendInvalidLogoutPage(reply, locale, checked.refusal, services.metrics);
      return finish(request, reply, checked, locale);
    },
  );
};
