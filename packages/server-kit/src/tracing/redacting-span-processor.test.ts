import { describe, expect, it } from 'vitest';
import { REDACTED, redactions, withoutLiterals } from './redacting-span-processor.ts';

describe('redactions', () => {
  it.each([
    ['url.query', 'code=abc&state=xyz', REDACTED],
    ['url.path', '/authorize?client_id=a&state=s', '/authorize'],
    ['url.full', 'https://rp.example/callback?code=abc#frag', 'https://rp.example/callback'],
    ['http.target', '/api/users/current?access_token=t', '/api/users/current'],
    ['http.url', 'http://localhost/x?token=t', 'http://localhost/x'],
    ['http.request.header.cookie', 'session=s', REDACTED],
    ['http.request.header.authorization', 'Bearer t', REDACTED],
    ['http.request.header.x-csrf-token', 't', REDACTED],
    ['http.response.header.set-cookie', 'session=s', REDACTED],
    ['db.postgresql.values', '["secret"]', REDACTED],
    [
      'db.query.text',
      "select 1 from users where email = 'a@b.c'",
      'select ? from users where email = ?',
    ],
    ['db.statement', 'update users set x = 2 where id = 3', 'update users set x = ? where id = ?'],
  ])('replaces %s', (key, value, replacement) => {
    expect(redactions({ [key]: value })).toEqual({ [key]: replacement });
  });

  it.each([
    ['url.path', '/api/stores/12'],
    ['http.route', '/api/stores/:storeId'],
    ['db.query.text', 'select id from users where id = $1 and activated'],
    ['db.operation.name', 'evalsha'],
    ['http.response.status_code', 200],
  ])('keeps %s = %s', (key, value) => {
    expect(redactions({ [key]: value })).toEqual({});
  });
});

describe('withoutLiterals', () => {
  it.each([
    ["where name = 'O''Brien' and x = 1", 'where name = ? and x = ?'],
    ["where note = E'it\\'s' limit 10", 'where note = ? limit ?'],
    ['select $body$ any text $body$, $$x$$', 'select ?, ?'],
    [
      'select t1.c2 from t1 where c3 = $2 and c4 > 2.5e3',
      'select t1.c2 from t1 where c3 = $2 and c4 > ?',
    ],
  ])('%s', (sql, expected) => {
    expect(withoutLiterals(sql)).toBe(expected);
  });
});
