import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AuthServices } from '../../auth-services.ts';
import { advance, clientOfPending } from '../../authorization/authorization-flow.ts';
import { authorizationContext, sendOutcome } from '../../authorization/authorization-responses.ts';
import { limitPagePerAddress, spendAttempt } from '../../authorization/interaction-rate-limit.ts';
import { sendFormExpiredPage, sendTooManyRequestsPage } from '../../pages/error.page.ts';
import { formTokenMatches } from '../../pages/form-token.ts';
import { pickLocale } from '../../pages/locale.ts';
import { DEVICE_PATH, LOGIN_PATH, RETURN_TO_PARAM } from '../../pages/page-paths.ts';
import {
  DEVICE_REDIRECT_URI,
  type AuthorizationRequest,
} from '../../stores/authorization-requests.store.ts';
import { formatUserCode, normaliseUserCode } from '../../stores/device-authorizations.store.ts';
import { sendDevicePage, sendUnknownUserCodePage } from './device.page.ts';

const UserCodeSchema = Type.String({ maxLength: 32 });

const DeviceQuerySchema = Type.Object({ user_code: Type.Optional(UserCodeSchema) });

const DeviceFormSchema = Type.Object({
  user_code: UserCodeSchema,
  csrf: Type.Optional(Type.String({ maxLength: 64 })),
});

/** The login page, returning here (with the code) once the user has signed in. */
function redirectToLogin(reply: FastifyReply, returnTo: string, status: 302 | 303) {
  const query = new URLSearchParams({ [RETURN_TO_PARAM]: returnTo });
  return reply.redirect(`${LOGIN_PATH}?${query.toString()}`, status);
}

/**
 * The verification page of the device authorization grant (RFC 8628 3.3, docs/oauth.md §12.3):
 * the signed-in user enters (or confirms) the device's user code; the request it names then
 * takes the code flow's steps (`advance`: region gate, consent, always asked) and ends by
 * approving or denying the device instead of issuing a code.
 */
export const deviceRoutes: FastifyPluginAsyncTypebox<AuthServices> = async (app, services) => {
  app.get(
    DEVICE_PATH,
    { schema: { tags: ['interaction'], querystring: DeviceQuerySchema } },
    async (request, reply) => {
      const locale = pickLocale(request.headers['accept-language']);
      const typed = request.query.user_code;
      const userCode = typed === undefined ? null : normaliseUserCode(typed);
      const { session } = request;
      if (!session) {
        const query = userCode === null ? '' : `?user_code=${formatUserCode(userCode)}`;
        return redirectToLogin(reply, `${DEVICE_PATH}${query}`, 302);
      }
      return sendDevicePage(reply, {
        locale,
        token: session.csrfToken,
        userCode: userCode === null ? '' : formatUserCode(userCode),
      });
    },
  );

  app.post(
    DEVICE_PATH,
    {
      // A form cannot send the X-CSRF-Token header; the field is checked below instead.
      config: { csrf: false },
      // RFC 8628 5.1: every entered code counts, right or wrong, so guessing one is slow.
      onRequest: limitPagePerAddress(services.kv, {
        name: 'device-user-code-rate',
        limit: services.config.DEVICE_USER_CODE_ATTEMPTS_PER_IP_PER_HOUR,
        windowMs: 3_600_000,
      }),
      schema: { tags: ['interaction'], body: DeviceFormSchema },
    },
    async (request, reply) => {
      const locale = pickLocale(request.headers['accept-language']);
      const { session } = request;
      if (!session) return redirectToLogin(reply, DEVICE_PATH, 303);
      if (!formTokenMatches(session.csrfToken, request.body.csrf)) {
        return sendFormExpiredPage(reply, locale);
      }
      const wait = await spendAttempt(
        services.kv,
        `oauth:device-user-code-rate:user:${session.userId}`,
        {
          limit: services.config.DEVICE_USER_CODE_ATTEMPTS_PER_ACCOUNT_PER_HOUR,
          windowMs: 3_600_000,
        },
      );
      if (wait !== null) return sendTooManyRequestsPage(reply, locale, wait);
      const userCode = normaliseUserCode(request.body.user_code);
      const found = userCode === null ? null : await services.devices.takeUserCode(userCode);
      if (!found) return sendUnknownUserCodePage(reply, locale);
      const deviceRequest: AuthorizationRequest = {
        clientId: found.authorization.clientId,
        redirectUri: DEVICE_REDIRECT_URI,
        state: null,
        scopes: found.authorization.scopes,
        codeChallenge: null,
        nonce: null,
        // RFC 8628 5.4: a remembered consent never approves a device unasked.
        prompt: ['consent'],
        maxAge: null,
        deviceId: found.deviceId,
      };
      const client = await clientOfPending(request.em, deviceRequest);
      if (!client) return sendUnknownUserCodePage(reply, locale);
      const outcome = await advance(
        authorizationContext(services, request),
        client,
        deviceRequest,
        session,
      );
      return sendOutcome(services, reply, outcome, {
        target: deviceRequest,
        afterPost: true,
        locale,
      });
    },
  );
};
