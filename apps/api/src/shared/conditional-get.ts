import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** RFC 9110 13.1.2: a list of entity tags, weak ones compared by their opaque part, or `*`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/** A strong entity tag of a body: equal tags mean equal bytes. */
export function contentEtag(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url')}"`;
}

/**
 * 304 Not Modified, with no body and so with neither a type nor a length (RFC 9110 15.4.5): no
 * payload reaches the serializer, which would write `null` under `application/json`. The
 * validators the 200 sends (ETag, Cache-Control) are set by the caller before.
 */
export function sendNotModified(reply: FastifyReply): FastifyReply {
  return reply.code(304).send();
}

/**
 * Answers a personal JSON read that a client keeps and asks for again (the search index) from
 * its serialized `body` and that body's `etag` (`contentEtag`): `Cache-Control: private,
 * no-cache`, so that only the user's own browser may store it and must revalidate it every
 * time, and 304 without a body when `If-None-Match` names the tag (RFC 9110 15.4.5): the client
 * keeps what it has, and nothing is sent or parsed again.
 *
 * The tag is a digest of the body, not a version of the data behind it: it changes exactly when
 * the answer does, whatever wrote to the database, and a tag sent by another user's browser
 * matches only an answer with the very same bytes, which hides nothing.
 */
export function sendRevalidated(
  request: FastifyRequest,
  reply: FastifyReply,
  { body, etag }: { body: string; etag: string },
): FastifyReply {
  void reply.headers({ etag, 'cache-control': 'private, no-cache' });
  if (matchesEtag(request.headers['if-none-match'], etag)) return sendNotModified(reply);
  return reply.type('application/json; charset=utf-8').send(body);
}
