// Any origin serves: only whether the value stays on it matters.
const ORIGIN = new URL('https://origin.invalid');

/**
 * A path on this origin, or undefined. Anything that could leave the origin is refused: an open
 * redirect would let a phishing link pass through our login. The value is normalised as a
 * browser would, with the WHATWG URL parser (dot segments, `%2e`, backslashes). The result must
 * stay on the origin. It must not read as a network-path reference (`//host`, `/\host`) to the
 * browser that follows the redirect, nor become one after another round of decoding.
 */
export function safeReturnPath(value: string | undefined): string | undefined {
  if (value === undefined || !value.startsWith('/')) return undefined;
  // Backslashes and control characters have no place in a path of ours; browsers read the
  // first as a slash and drop tabs and newlines, which is how `/\t/host` becomes `//host`.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  let resolved: URL;
  try {
    resolved = new URL(value, ORIGIN);
  } catch {
    return undefined;
  }
  if (resolved.origin !== ORIGIN.origin) return undefined;
  const path = `${resolved.pathname}${resolved.search}`;
  if (leavesOrigin(path) || leavesOrigin(decoded(resolved.pathname))) return undefined;
  // The browser resolves the Location header once more: it must land on the same path.
  const again = new URL(path, ORIGIN);
  return again.origin === ORIGIN.origin && `${again.pathname}${again.search}` === path
    ? path
    : undefined;
}

/** `//host` or `/\host`: a network-path reference, another origin to a browser. */
function leavesOrigin(path: string): boolean {
  return /^\/[/\\]/.test(path) || !path.startsWith('/');
}

/** An encoded `%2F` or `%5C` that a proxy or framework might decode before routing. */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    // Malformed escapes: treat as leaving, never guess.
    return '//';
  }
}
