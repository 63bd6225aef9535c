import { readFileSync } from 'node:fs';

export interface SpecRoute {
  row: number;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** As the spec writes it, with `{name}` for a path parameter. */
  path: string;
}

const SPEC_DOCUMENT = new URL('../../../../docs/spec.md', import.meta.url);
const ROW = /^\|\s*(\d+)\s*\|\s*(GET|POST|PATCH|DELETE)\s+`([^`]+)`/;

/** The rows of docs/spec.md §4.1, read from the table itself, so that a new row is covered. */
export function specRoutes(): SpecRoute[] {
  const text = readFileSync(SPEC_DOCUMENT, 'utf8');
  const start = text.indexOf('### 4.1 REST endpoints');
  const end = text.indexOf('\n### ', start + 1);
  if (start < 0 || end < 0) throw new Error('docs/spec.md has no §4.1 table');
  return text
    .slice(start, end)
    .split('\n')
    .flatMap((line) => {
      const match = ROW.exec(line);
      if (!match) return [];
      const [, row, method, path] = match;
      return [{ row: Number(row), method: method as SpecRoute['method'], path: path ?? '' }];
    });
}
