export type AccountErrorCode =
  | 'INVALID_INPUT'
  | 'EMAIL_TAKEN'
  | 'USER_NOT_FOUND'
  | 'REGION_NOT_FOUND'
  | 'REGION_ID_TAKEN'
  | 'REGION_TAKES_NO_MEMBERS'
  | 'REGION_IN_USE'
  | 'REGION_IS_HOME_REGION'
  | 'CLIENT_ID_TAKEN'
  | 'INVALID_REDIRECT_URI'
  | 'CLIENT_NOT_FOUND'
  | 'CLIENT_NOT_CONFIDENTIAL';

/**
 * A refusal of an account operation. `code` is stable (SCREAMING_SNAKE) so that a route or
 * the CLI can pass it on unchanged; `message` is written for the person who made the request.
 */
export class AccountError extends Error {
  readonly code: AccountErrorCode;

  constructor(code: AccountErrorCode, message: string) {
    super(message);
    this.name = 'AccountError';
    this.code = code;
  }
}
