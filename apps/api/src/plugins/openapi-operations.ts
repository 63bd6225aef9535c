import type { RouteOptions } from 'fastify';

/** The security schemes' names in the document. `api_key` is the name docs/spec.md §5.1 gives. */
export const SESSION_SCHEME = 'session';
export const CSRF_SCHEME = 'api_key';
/** An access token with the scope `api` (plugins/access-tokens.ts, docs/oauth.md §11). */
export const BEARER_SCHEME = 'bearer';

/** One tag per feature folder: the documentation page groups the operations by them. */
export const OPERATION_TAGS = [
  { name: 'session', description: 'Log in and out; the logged-in user.' },
  { name: 'bananas', description: 'Bananas: the thanks one user gives another, with a message.' },
  { name: 'conversations', description: 'Conversations and their messages, for their members.' },
  { name: 'forum', description: 'Forum threads, and the moderators hiding and restoring posts.' },
  { name: 'passport', description: 'The passport card a verified user creates for themselves.' },
  { name: 'quizzes', description: 'Quiz answers for their curators; confirming a passed quiz.' },
  { name: 'regions', description: 'Regions and the options their administrators set.' },
  { name: 'reports', description: 'Reports about a user, for the people who handle them.' },
  { name: 'resources', description: 'The resources the logged-in user owns.' },
  { name: 'search', description: 'The search index the web client searches in the browser.' },
  { name: 'store chains', description: 'Store chains and their key account managers.' },
  { name: 'stores', description: 'Store teams: requests to join, and the team’s log.' },
  { name: 'uploads', description: 'Uploaded files, such as avatars.' },
  { name: 'work groups', description: 'Working groups and the applications to join them.' },
];

const KNOWN_TAGS = new Set(OPERATION_TAGS.map((tag) => tag.name));

/** camelCase: a verb and what it acts on, e.g. `getStoreRequests`. */
const OPERATION_ID = /^[a-z][a-zA-Z]+$/;

/**
 * A documented route (one with tags) must name its operation, sum it up, and use a tag of
 * OPERATION_TAGS:
 * client generators name their functions and types after the operationId, so a missing or
 * changed one breaks every client. Refused when the route is added, so the app does not boot.
 */
export function requireOperationNaming(route: RouteOptions, seen: Set<string>): void {
  const schema = route.schema as
    { tags?: string[]; operationId?: string; summary?: string } | undefined;
  // Fastify adds a HEAD route for each GET, with the same schema; the document leaves it out.
  if (schema?.tags === undefined || route.method === 'HEAD') return;
  const where = `${String(route.method)} ${route.url}`;
  const { operationId } = schema;
  if (operationId === undefined || !OPERATION_ID.test(operationId)) {
    throw new Error(`${where}: a documented route needs a camelCase operationId`);
  }
  if (seen.has(operationId)) throw new Error(`${where}: operationId ${operationId} is taken`);
  // The line the documentation page lists the operation by (Redocly's operation-summary).
  if (!schema.summary?.trim()) throw new Error(`${where}: a documented route needs a summary`);
  seen.add(operationId);
  const unknown = schema.tags.filter((tag) => !KNOWN_TAGS.has(tag));
  if (unknown.length > 0) throw new Error(`${where}: unknown tag ${unknown.join(', ')}`);
}

type SecurityRequirement = Record<string, string[]>;

function onlyReads(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.every((method) => method === 'GET' || method === 'HEAD');
}

/**
 * What an operation asks of the caller, as the session, CSRF and access-token hooks enforce it:
 * - login starts the session, so it needs nothing (`[]`);
 * - logout answers anyone, but with a session it is a write like any other;
 * - every other route needs the session cookie (plugins/caller.ts, `requireSession`), and a write the CSRF
 *   token too (csrf.ts). docs/spec.md §4 names `api_key` on every endpoint: a read accepts the
 *   header, but the session alone is enough, so it lists both ways. Or, instead of the session,
 *   an access token with the scope `api`, which needs no CSRF token (access-tokens.ts).
 */
export function securityOf(route: RouteOptions): SecurityRequirement[] {
  const withToken = { [SESSION_SCHEME]: [], [CSRF_SCHEME]: [] };
  if (route.config?.public === true) {
    return route.config.csrf === false ? [] : [{}, withToken];
  }
  const bySession = onlyReads(route) ? [withToken, { [SESSION_SCHEME]: [] }] : [withToken];
  return [...bySession, { [BEARER_SCHEME]: [] }];
}
