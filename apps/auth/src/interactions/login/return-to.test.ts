import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-to.ts';

describe('safeReturnPath: where the login page may send someone afterwards', () => {
  it.each([
    ['/admin/oauthclients', '/admin/oauthclients'],
    ['/admin/oauthclients?page=2', '/admin/oauthclients?page=2'],
    ['/connected-apps', '/connected-apps'],
    ['/a/../connected-apps', '/connected-apps'],
    ['/./connected-apps', '/connected-apps'],
    ['/admin/oauthclients?next=//x', '/admin/oauthclients?next=//x'],
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
    ['a newline inside', '/\n/evil.example/'],
    ['a carriage return inside', '/\r/evil.example/'],
    ['a dot segment before the host', '/.//evil.example/x'],
    ['an encoded dot segment', '/%2e//evil.example/x'],
    ['an encoded dot segment, upper case', '/%2E//evil.example/x'],
    ['a double dot segment', '/a/..//evil.example/x'],
    ['an encoded double dot segment', '/a/%2e%2e//evil.example/x'],
    ['several dot segments', '/a/b/../..//evil.example/x'],
    ['an encoded slash', '/%2fevil.example/x'],
    ['an encoded slash, upper case', '/%2F%2Fevil.example/x'],
    ['an encoded backslash', '/%5cevil.example/x'],
    ['a dot segment and an encoded slash', '/./%2f/evil.example/x'],
    ['a malformed escape', '/%E0%A4%A'],
    ['nothing', undefined],
    ['the empty string', ''],
  ])('refuses %s', (_name, value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });
});
