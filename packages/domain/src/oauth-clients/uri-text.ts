// The first checks of every URI a client registers (redirect, back-channel logout, logo, policy
// ...), and their wording: each rule set then adds what its own use needs.

/** Why a URI's text alone cannot be registered. */
export type UriTextProblemCode = 'LENGTH' | 'WHITE_SPACE';

// eslint-disable-next-line no-control-regex
const WHITE_SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;

/** Its length (1 to `maxLength`), then no white space or control character, or null. */
export function uriTextProblemCode(uri: string, maxLength: number): UriTextProblemCode | null {
  if (uri.length === 0 || uri.length > maxLength) return 'LENGTH';
  return WHITE_SPACE_OR_CONTROL.test(uri) ? 'WHITE_SPACE' : null;
}

/** The words of the problems the rule sets share. */
export function sharedUriProblems(maxLength: number) {
  return {
    LENGTH: `must have 1 to ${maxLength} characters`,
    WHITE_SPACE: 'must not contain white space or control characters',
    FRAGMENT: 'must not contain a fragment',
    CREDENTIALS: 'must not contain credentials',
  } as const;
}
