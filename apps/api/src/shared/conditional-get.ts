import { createHash } from 'node:crypto';
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
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/**
 * `onSend` hook of a personal JSON read that a client keeps and asks for again (the search
 * index): the answer carries a strong ETag, a digest of its body, and `Cache-Control: private,
 * no-cache`, so that only the user's own browser may store it and must revalidate it every
 * time. A request whose `If-None-Match` names that tag gets 304 without a body (RFC 9110
 * 15.4.5): the client keeps what it has, and nothing is sent or parsed again.
 *
 * The tag is taken from the body, not from a version of the data behind it: it changes exactly
 * when the answer does, whatever wrote to the database, and a tag sent by another user's
 * browser matches only an answer with the very same bytes, which hides nothing.
 */
export async function revalidateByContent(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode !== 200) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const etag = contentEtag(payload);
  void reply.headers({ etag, 'cache-control': 'private, no-cache' });
  if (!matchesEtag(request.headers['if-none-match'], etag)) return payload;
  void reply.code(304).removeHeader('content-type');
  return null;
}
