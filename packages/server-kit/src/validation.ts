import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';

/** JSON Pointer escaping (RFC 6901), with a NUL in a key shown rather than sent. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1').replaceAll('\u0000', '\\u0000');
}

/**
 * The JSON Pointer of a string or key holding U+0000 within `value`, or undefined.
 * Walks with its own stack: a deeply nested body must not overflow the call stack.
 */
export function findNulCharacter(value: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const current = next.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return next.path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) =>
        pending.push({ value: item, path: `${next.path}/${index}` }),
      );
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const path = `${next.path}/${pointerToken(key)}`;
        if (key.includes('\u0000')) return path;
        pending.push({ value: item, path });
      }
    }
  }
  return undefined;
}

/** The keyword of the validation error that `rejectingNulCharacters` reports. */
export const NUL_CHARACTER_KEYWORD = 'nulCharacter';

/**
 * Wraps a validator compiler so that no validated request part (params, body, query string,
 * headers) may hold U+0000 anywhere, in a value or a key. PostgreSQL `text` cannot store it
 * (error 22021), so it would otherwise surface as a 500 wherever a string reaches SQL. One
 * check for every schema, present and future, answered like any validation failure: 400
 * (404 in a path, docs/design.md §3.2).
 */
export function rejectingNulCharacters<T>(
  compile: FastifySchemaCompiler<T>,
): FastifySchemaCompiler<T> {
  return (route) => {
    const validate = compile(route);
    return (data: unknown) => {
      const path = findNulCharacter(data);
      if (path === undefined) return validate(data);
      const error: FastifySchemaValidationError = {
        keyword: NUL_CHARACTER_KEYWORD,
        instancePath: path,
        schemaPath: '#',
        params: {},
        message: 'must not contain the NUL character (U+0000)',
      };
      return { error: [error] };
    };
  };
}
