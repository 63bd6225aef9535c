import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-to.ts';

describe('safeReturnPath: where the login page may send someone afterwards', () => {
  it.each([
    ['/admin/oauthclients', '/admin/oauthclients'],
    ['/admin/oauthclients?page=2', '/admin/oauthclients?page=2'],
    ['/connected-apps', '/connected-apps'],
    ['/a/../connected-apps', '/connected-apps'],
  ])('accepts the local path %s', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it.each([
    ['a protocol-relative URL', '//evil.example/'],
    ['a backslash trick', '/\\evil.example/'],
    ['a backslash later on', '/x\\..\\evil'],
    ['an absolute URL', 'https://evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'admin'],
    ['a tab inside', '/\t/evil.example/'],
    ['nothing', undefined],
  ])('refuses %s', (_name, value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });
});
