const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';

/**
 * An http URI on a loopback host, split into what must match (scheme and host), the port, and
 * the rest (path and query, compared as they are). Read off the raw string rather than through
 * `URL`, which normalises dot segments, case and `127.1`: two different strings must never match
 * because the parser made them equal. A userinfo (`user@`), a longer host (`127.0.0.1.evil.com`)
 * or a fragment does not fit the pattern, so such a URI only matches as an exact string.
 */
const LOOPBACK_REDIRECT = new RegExp(
  `^(http://(?:localhost|\\[::1\\]|127(?:\\.${OCTET}){3}))(?::([1-9]\\d{0,4}))?([/?][^#]*)?$`,
);
const MAX_PORT = 65_535;

function loopbackParts(uri: string): { origin: string; rest: string } | null {
  const match = LOOPBACK_REDIRECT.exec(uri);
  if (!match || (match[2] !== undefined && Number(match[2]) > MAX_PORT)) return null;
  return { origin: match[1]!, rest: match[3] ?? '' };
}

/**
 * Whether a redirect URI sent by a client is the registered one. Exact string equality
 * (docs/spec.md §5.2 rule 5, RFC 9700 2.1), with one exception: on a loopback host over http
 * the port may differ, since a native app listens on whatever port the operating system gives
 * it at run time (RFC 8252 7.3, 8.4). That holds too when the registered URI names a port: the
 * app cannot know its port when it registers, so a port written there is no promise
 * (docs/oauth.md §2.10).
 */
export function redirectUriMatches(registered: string, sent: string): boolean {
  if (registered === sent) return true;
  const expected = loopbackParts(registered);
  if (expected === null) return false;
  const actual = loopbackParts(sent);
  return actual !== null && actual.origin === expected.origin && actual.rest === expected.rest;
}

/**
 * Whether `sent` matches one of a client's registered redirect (or post-logout redirect) URIs.
 * The one comparison of redirect URIs the server makes (docs/oauth.md §2.2).
 */
export function isRegisteredRedirectUri(registered: readonly string[], sent: string): boolean {
  return registered.some((uri) => redirectUriMatches(uri, sent));
}
