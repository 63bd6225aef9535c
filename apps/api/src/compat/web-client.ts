import type { SignedInClient } from '@foodshare/server-kit/test-support';
import type { LightMyRequestResponse } from 'fastify';
import type { ApiApp } from '../app.ts';
import { platformRequest } from './platform-client.ts';

/**
 * The platform's web client (client/src/api/base.js): `get` sends no body; `post`, `put` and
 * `patch` send `Content-Type: application/json; charset=utf-8` with `JSON.stringify(body)`,
 * which for a call without a body is no body at all; `remove` sends the same header with `{}`
 * unless given a body. Paths are relative to `/api`, as the client's are.
 */
export const webClient = {
  get: (app: ApiApp, client: SignedInClient | null, path: string) =>
    platformRequest(app, client, { method: 'GET', url: `/api${path}` }),
  post: (app: ApiApp, client: SignedInClient | null, path: string, body?: object) =>
    withJsonHeader(app, client, 'POST', path, body),
  patch: (app: ApiApp, client: SignedInClient | null, path: string, body?: object) =>
    withJsonHeader(app, client, 'PATCH', path, body),
  remove: (app: ApiApp, client: SignedInClient | null, path: string, body: object = {}) =>
    withJsonHeader(app, client, 'DELETE', path, body),
};

function withJsonHeader(
  app: ApiApp,
  client: SignedInClient | null,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body: object | undefined,
): Promise<LightMyRequestResponse> {
  return platformRequest(app, client, {
    method,
    url: `/api${path}`,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    rawPayload: body === undefined ? '' : JSON.stringify(body),
  });
}
