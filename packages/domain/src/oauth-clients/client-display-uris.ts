import { AccountError } from '../accounts/account-errors.ts';
import { sharedUriProblems, uriTextProblemCode } from './uri-text.ts';

const MAX_CLIENT_DISPLAY_URI_LENGTH = 2000;

/**
 * What a client may register about itself for the consent page (OpenID Connect Dynamic Client
 * Registration 1.0 §2 names them): its logo, home page, privacy policy and terms of service.
 */
export const CLIENT_DISPLAY_URI_FIELDS = ['logoUri', 'clientUri', 'policyUri', 'tosUri'] as const;
export type ClientDisplayUriField = (typeof CLIENT_DISPLAY_URI_FIELDS)[number];

/** Why a client's logo, home page, policy or terms URI cannot be registered, as a stable code. */
export type ClientDisplayUriProblemCode =
  'LENGTH' | 'WHITE_SPACE' | 'MARKUP' | 'NOT_ABSOLUTE' | 'CREDENTIALS' | 'NOT_HTTPS';

const shared = sharedUriProblems(MAX_CLIENT_DISPLAY_URI_LENGTH);
const CLIENT_DISPLAY_URI_PROBLEMS: Record<ClientDisplayUriProblemCode, string> = {
  LENGTH: shared.LENGTH,
  WHITE_SPACE: shared.WHITE_SPACE,
  MARKUP: 'must not contain < > " \' or `',
  NOT_ABSOLUTE: 'must be an absolute URL with a host',
  CREDENTIALS: shared.CREDENTIALS,
  NOT_HTTPS: 'must use https',
};

const FIELD_NAMES: Record<ClientDisplayUriField, string> = {
  logoUri: 'logo URI',
  clientUri: 'home page URI',
  policyUri: 'privacy policy URI',
  tosUri: 'terms of service URI',
};

/**
 * Why a URI cannot be shown as a link or image of the client, or null when it can. The consent
 * page links to it, so only https passes: no javascript:, data: or plain http page reached from
 * our sign-in. The server never fetches it. Characters that only markup needs are refused even
 * though the page escapes them: whoever registers `"><script>` means no good.
 */
export function clientDisplayUriProblemCode(uri: string): ClientDisplayUriProblemCode | null {
  const text = uriTextProblemCode(uri, MAX_CLIENT_DISPLAY_URI_LENGTH);
  if (text !== null) return text;
  if (/[<>"'`]/.test(uri)) return 'MARKUP';
  if (!URL.canParse(uri)) return 'NOT_ABSOLUTE';
  const url = new URL(uri);
  if (url.protocol !== 'https:') return 'NOT_HTTPS';
  if (url.hostname === '') return 'NOT_ABSOLUTE';
  if (url.username !== '' || url.password !== '') return 'CREDENTIALS';
  return null;
}

/** Why such a URI cannot be registered, in English, or null when it can. */
export function clientDisplayUriProblem(uri: string): string | null {
  const code = clientDisplayUriProblemCode(uri);
  return code === null ? null : CLIENT_DISPLAY_URI_PROBLEMS[code];
}

export function assertClientDisplayUri(field: ClientDisplayUriField, uri: string): void {
  const problem = clientDisplayUriProblem(uri);
  if (problem !== null) {
    throw new AccountError('INVALID_INPUT', `Invalid ${FIELD_NAMES[field]} ${uri}: ${problem}`);
  }
}

/** Characters of markup a client name may not carry: it is shown on every sign-in page. */
export const CLIENT_NAME_MARKUP = /[<>]/;
