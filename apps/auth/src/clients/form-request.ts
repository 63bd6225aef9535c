import { NUL_CHARACTER_KEYWORD } from '@foodshare/server-kit';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { invalidRequest, type OAuthError } from '../errors/oauth-errors.ts';

/** RFC 6749 3.2 / RFC 7009 2.1: parameters are sent as application/x-www-form-urlencoded. */
export function assertFormEncoded(request: FastifyRequest): void {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw invalidRequest('The request body must be application/x-www-form-urlencoded');
  }
}

/**
 * The `invalid_request` for a form that failed its schema (the handler runs with
 * `attachValidation`), described by what failed. The form fields are optional strings, so a
 * type error is a parameter sent twice, which arrives as an array (RFC 6749 3.2: at most once);
 * the shared validator refuses U+0000 anywhere (server-kit validation.ts). The parameter is named
 * only when its name is plain: error_description allows few characters (RFC 6749 5.2).
 */
export function invalidForm(error: { validation?: unknown }): OAuthError {
  const issues = Array.isArray(error.validation)
    ? (error.validation as FastifySchemaValidationError[])
    : [];
  const issue = issues.find((each) => each.keyword === NUL_CHARACTER_KEYWORD) ?? issues[0];
  const name = issue?.instancePath.split('/')[1];
  const parameter = name && /^[a-z_]{1,40}$/.test(name) ? name : undefined;
  if (issue?.keyword === NUL_CHARACTER_KEYWORD) {
    return invalidRequest(
      `${parameter ?? 'A parameter'} must not contain the NUL character (U+0000)`,
    );
  }
  if (issue?.keyword === 'type') {
    return invalidRequest(
      parameter ? `${parameter} must be sent once` : 'Each parameter must be sent once',
    );
  }
  return invalidRequest('The request parameters are invalid');
}
