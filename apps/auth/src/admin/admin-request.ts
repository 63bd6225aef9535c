import type { AuthServices } from '../auth-services.ts';
import { AccountError } from '@foodshare/domain';
import { parseIdParam } from '@foodshare/schemas';
import { requireActor, requireSession } from '@foodshare/server-kit';
import { announceClientRowChange } from '@foodshare/server-kit/oauth-grants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditEvent } from '../observability/audit.ts';
import { Type } from 'typebox';
import { pickLocale, type Locale } from '../pages/locale.ts';
import { sendAdminMessage } from './admin.page.ts';
import { adminTextsFor, type AdminTexts } from './admin-texts.ts';
import { findClient, type ClientDetail } from './oauth-clients-admin.service.ts';
import { CLIENT_ROW_MAX_AGE_MS } from '../clients/registered-clients.ts';

/** What the routes of /admin/oauthclients read off a request, and how they say "not found". */

export const NoticeQuerySchema = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 40 })),
});
// Any string: a malformed id is answered with the admin's own 404 page, not a JSON problem.
export const ClientParamsSchema = Type.Object({ id: Type.String() });

// Forms cannot send the X-CSRF-Token header; the plugin's preHandler checks the form's field.
export const formRoute = { config: { csrf: false } } as const;

export function localeOf(request: FastifyRequest): { locale: Locale; texts: AdminTexts } {
  const locale = pickLocale(request.headers['accept-language']);
  return { locale, texts: adminTextsFor(locale) };
}

export const csrfToken = (request: FastifyRequest) => requireSession(request).csrfToken;

export const actorId = async (request: FastifyRequest) => (await requireActor(request)).id;

export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  const { locale, texts } = localeOf(request);
  return sendAdminMessage(reply, locale, texts.notFound, 404);
}

/**
 * A deactivated or deleted client loses every grant it holds: users' remembered consents and all
 * its tokens. Run inside the change's transaction, so the change fails if this does, and again
 * after the commit (OAuthClientEndOptions.endGrants says why).
 */
export const endGrantsOf = (services: AuthServices) => (clientId: string, databaseNow: Date) =>
  services.grantRevocation.endClientGrants(clientId, databaseNow);

/**
 * Every instance reads the client's row again at its next authentication (docs/oauth.md §6.4).
 * The change has committed: should Redis be out of reach, it holds within the rows' age instead,
 * which is logged rather than shown to the admin as a failure.
 */
export async function announceClientChange(
  services: AuthServices,
  request: FastifyRequest,
  clientId: string,
) {
  try {
    await announceClientRowChange(services.kv, clientId);
  } catch (error) {
    request.log.warn(
      { err: error, clientId, holdsWithinMs: CLIENT_ROW_MAX_AGE_MS },
      'could not announce a client change: other instances may use the old row meanwhile',
    );
  }
}

/** The client was deleted while the admin looked at it. */
export function isClientGone(error: unknown): boolean {
  return error instanceof AccountError && error.code === 'CLIENT_NOT_FOUND';
}

export async function loadClient(
  request: FastifyRequest,
  id: string,
): Promise<ClientDetail | null> {
  const rowId = parseIdParam(id);
  return rowId === undefined ? null : findClient(request.em, rowId);
}

/** What a change to one client leads to. */
export interface ClientChange {
  /** The audit event of docs/oauth.md §6.6 and its fields; none when nothing changed. */
  audit: { event: AuditEvent; clientId: string; fields?: string[] } | null;
  /** The page the admin is sent to (303), which shows the result. */
  redirectTo: string;
  /** A step after the audit entry, e.g. keeping a new secret for the one page that shows it. */
  afterwards?: () => Promise<void>;
}

/**
 * A form POST that changes the client named in the path, in the one order they all follow: the
 * id (the admin's 404 page for a malformed one), the acting admin, the change (the 404 page
 * for a client deleted meanwhile), its audit entry, and the 303 to the page showing the result.
 * The form's CSRF field was checked before the handler ran (`formRoute`).
 */
export async function changeClient(
  services: AuthServices,
  request: FastifyRequest & { params: { id: string } },
  reply: FastifyReply,
  change: (id: number, actorId: number) => Promise<ClientChange>,
) {
  const id = parseIdParam(request.params.id);
  if (id === undefined) return sendNotFound(request, reply);
  const actor = await actorId(request);
  let changed: ClientChange;
  try {
    changed = await change(id, actor);
  } catch (error) {
    if (isClientGone(error)) return sendNotFound(request, reply);
    throw error;
  }
  if (changed.audit) {
    const { event, clientId, fields } = changed.audit;
    services.audit(request, event, { clientId, actorId: actor, ...(fields ? { fields } : {}) });
    await announceClientChange(services, request, clientId);
  }
  await changed.afterwards?.();
  return reply.redirect(changed.redirectTo, 303);
}
