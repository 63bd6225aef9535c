/** The login page's parameter naming the page of this service to show after logging in. */
export const RETURN_TO_PARAM = 'return_to';

/**
 * A path on this origin, or undefined. Anything that could leave the origin is refused (an open
 * redirect would let a phishing link pass through our login): `//host` and `/\host` are
 * network-path references to browsers, and a scheme or control characters have no place here.
 */
export function safeReturnPath(value: string | undefined): string | undefined {
  if (value === undefined || !value.startsWith('/') || /^\/[/\\]/.test(value)) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  const base = new URL('http://origin.invalid');
  const resolved = new URL(value, base);
  return resolved.origin === base.origin ? `${resolved.pathname}${resolved.search}` : undefined;
}
