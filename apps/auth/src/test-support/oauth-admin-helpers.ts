import { randomUUID } from 'node:crypto';
import {
  addMembership,
  createUser,
  OAuthClientAuditLogEntity,
  OAuthClientEntity,
  type Role,
} from '@foodshare/domain';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import type { LightMyRequestResponse } from 'fastify';
import type { AuthApp } from '../app.ts';

/** A url-encoded form; an array value repeats the name, as checkboxes do. */
export type FormFields = Record<string, string | readonly string[]>;

export function encodeForm(fields: FormFields): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of typeof value === 'string' ? [value] : value) params.append(name, item);
  }
  return params.toString();
}

/** A POST of an HTML form as a browser sends it: cookies, no X-CSRF-Token header. */
export function postForm(
  app: AuthApp,
  url: string,
  fields: FormFields,
  options: { as?: SignedInClient; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    ...(options.as ? { cookies: options.as.cookies } : {}),
    payload: encodeForm(fields),
  });
}

export function getPage(
  app: AuthApp,
  url: string,
  options: { as?: SignedInClient; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': 'en', ...options.headers },
    ...(options.as ? { cookies: options.as.cookies } : {}),
  });
}

/** The CSRF form field of a signed-in browser (the session's token). */
export function csrfOf(client: SignedInClient): { csrf: string } {
  return { csrf: client.headers['x-csrf-token'] };
}

/** A new user of the given role, optionally member of some units, signed in. */
export async function signInNewUser(
  app: AuthApp,
  role: Role,
  memberOf: readonly number[] = [],
): Promise<SignedInClient> {
  const em = app.orm.em.fork();
  const user = await createUser(em, {
    firstName: 'Test',
    lastName: 'Person',
    email: `admin-test-${randomUUID()}@example.org`,
    password: 'a-long-test-password',
    role,
    verified: true,
  });
  await em.flush();
  for (const regionId of memberOf) await addMembership(em, user.id, regionId);
  return signInAs(app, user.id);
}

export async function findClientRow(
  app: AuthApp,
  clientId: string,
): Promise<OAuthClientEntity | null> {
  return app.orm.em.fork().findOne(OAuthClientEntity, { clientId });
}

export async function auditActions(
  app: AuthApp,
  clientId: string,
): Promise<{ action: string; actorId: number | null; changes: Record<string, unknown> }[]> {
  const rows = await app.orm.em
    .fork()
    .find(OAuthClientAuditLogEntity, { clientId }, { orderBy: { id: 'asc' } });
  return rows.map((row) => ({
    action: row.action,
    actorId: row.actor?.id ?? null,
    changes: row.changes,
  }));
}

export async function auditRowCount(app: AuthApp): Promise<number> {
  return app.orm.em.fork().count(OAuthClientAuditLogEntity, {});
}
