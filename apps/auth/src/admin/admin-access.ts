import {
  mayAdministerOAuthClients,
  WellKnownUnit,
  type Actor,
  type EntityManager,
} from '@foodshare/domain';
import { Problem, requireActor } from '@foodshare/server-kit';
import type { FastifyRequest } from 'fastify';

export type AdminAccess =
  { kind: 'login' } | { kind: 'forbidden' } | { kind: 'allowed'; actor: Actor };

/** Active membership in the OAuth client administration group (an admin of it is a member). */
async function inOAuthClientAdminGroup(em: EntityManager, userId: number): Promise<boolean> {
  const rows = await em.execute<{ found: number }[]>(
    `select 1 as found from region_memberships
      where user_id = ? and region_id = ? and active limit 1`,
    [userId, WellKnownUnit.OAuthClientAdministration],
  );
  return rows.length > 0;
}

/**
 * Who may use the admin pages, decided on every request: the memberships read afresh, the role
 * from the session's account facts, which every change of a role rewrites (docs/design.md
 * §3.11). Nobody logged in (or an account since deactivated) must log in; anyone else needs
 * mayAdministerOAuthClients.
 */
export async function checkAdminAccess(request: FastifyRequest): Promise<AdminAccess> {
  if (!request.session) return { kind: 'login' };
  let actor: Actor;
  try {
    actor = await requireActor(request);
  } catch (error) {
    if (error instanceof Problem && error.status === 401) return { kind: 'login' };
    throw error;
  }
  const isOAuthClientAdminGroupMember = await inOAuthClientAdminGroup(request.em, actor.id);
  return mayAdministerOAuthClients(actor, { isOAuthClientAdminGroupMember })
    ? { kind: 'allowed', actor }
    : { kind: 'forbidden' };
}
