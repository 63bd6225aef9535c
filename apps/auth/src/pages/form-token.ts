import { timingSafeEqual } from 'node:crypto';
import { html, type SafeHtml } from './html.ts';

/**
 * The name of the hidden field that carries the CSRF token in our HTML forms. A form cannot
 * send the X-CSRF-Token header, so its routes turn the header check off and compare this field
 * with the session's token (or, before login, with the pre-login cookie) themselves.
 */
export const FORM_TOKEN_FIELD = 'csrf';

export function formTokenField(token: string): SafeHtml {
  return html`<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${token}" />`;
}

/** Constant-time comparison; a missing or empty token never matches. */
export function formTokenMatches(expected: string | undefined, given: unknown): boolean {
  if (!expected || typeof given !== 'string' || given === '') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
