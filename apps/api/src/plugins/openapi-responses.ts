import { PROBLEM_CONTENT_TYPE } from '@foodshare/schemas';
import type { RouteOptions } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { referenceComponents } from './openapi-components.ts';

type ResponseMap = Record<string, unknown>;

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

const RETRY_AFTER = {
  'retry-after': { type: 'integer', description: 'Seconds to wait before sending it again' },
};

/** What each error status means on every operation that documents it (docs/design.md §3.3). */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'The input is malformed; `errors[]` names each field and the rule it breaks',
  '401': 'Not logged in, or the account is no longer active',
  '403': 'Logged in but not permitted, or the CSRF check failed (`CSRF_FAILED`)',
  // docs/design.md §3.2.
  '404':
    'No such resource; also a path value that does not match its pattern or overflows a ' +
    '32-bit id',
  '409': 'The request conflicts with the current state',
  '413': 'The body is larger than the service accepts (`BODY_TOO_LARGE`)',
  '415': 'The body is neither JSON nor a form (`UNSUPPORTED_MEDIA_TYPE`)',
  '422': 'Well-formed, but it breaks a domain rule; `code` names the rule',
  '429': 'Too many attempts; `Retry-After` says when to try again',
  '503':
    'PostgreSQL or Redis cannot be reached right now (`DATABASE_UNAVAILABLE`, ' +
    '`STATE_STORE_UNAVAILABLE`), or the request collided with a concurrent one and changed ' +
    'nothing (`DATABASE_CONFLICT`); `Retry-After` says when to send it again',
};

/** An error answer: the problem body (RFC 9457) under its own media type, as the server sends it. */
function problemResponse(status: string, schema: unknown): unknown {
  return {
    description: ERROR_DESCRIPTIONS[status] ?? STATUS_CODES[Number(status)] ?? 'Error',
    ...(status === '429' || status === '503' ? { headers: RETRY_AFTER } : {}),
    content: { [PROBLEM_CONTENT_TYPE]: { schema } },
  };
}

function hasBody(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.some((method) => method !== 'GET' && method !== 'HEAD');
}

/**
 * The answers any operation may give besides its own, whatever its handler does: a lost
 * dependency (503; every route reads the session from Redis), a request that did not arrive in
 * time (408), on a method that carries a body, one too large or of another type (413, 415), and
 * where a caller is needed, a refused access token (401, or 403 without the scope `api`).
 */
function genericResponses(route: RouteOptions): ResponseMap {
  return {
    ...(route.config?.public === true ? {} : { '401': PROBLEM_REF, '403': PROBLEM_REF }),
    // Answered by the HTTP server before any route runs, with the connection closed: its body
    // is the server's own and not part of the contract.
    '408': {
      // No content in the document (@fastify/swagger leaves it out for the null type).
      type: 'null',
      description:
        'The request did not arrive in full within the request timeout; the connection is closed',
    },
    ...(hasBody(route) ? { '413': PROBLEM_REF, '415': PROBLEM_REF } : {}),
    '503': PROBLEM_REF,
  };
}

/**
 * The response map of an operation as the document gives it: the named schemas as `$ref`s, the
 * generic answers added, and every error as `application/problem+json`, which is what the error
 * handler sends (server-kit's errors.ts), not the `application/json` a plain schema would get.
 */
export function documentedResponses(route: RouteOptions, response: unknown): ResponseMap {
  const own = typeof response === 'object' && response !== null ? response : {};
  const merged: ResponseMap = { ...genericResponses(route), ...own };
  return Object.fromEntries(
    Object.entries(merged)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, schema]) => {
        const referenced = referenceComponents(schema);
        const isProblem = Number(status) >= 400 && status !== '408';
        return [status, isProblem ? problemResponse(status, referenced) : referenced];
      }),
  );
}
