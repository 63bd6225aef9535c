import type { FastifyRequest } from 'fastify';
import { LOGIN_PATH, RETURN_TO_PARAM } from '../pages/page-paths.ts';
import { ADMIN_BASE_PATH } from './admin.page.ts';

/**
 * Where someone not logged in is sent: the login page, which brings them back to the page they
 * asked for. A POST cannot be repeated after the login, so it returns to the client list.
 */
export function loginLocation(request: FastifyRequest): string {
  const returnTo =
    request.method === 'GET' || request.method === 'HEAD' ? request.url : ADMIN_BASE_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ [RETURN_TO_PARAM]: returnTo }).toString()}`;
}
