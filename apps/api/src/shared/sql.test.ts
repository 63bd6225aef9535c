import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './sql.ts';

// What Date makes of a text: the answer the fast path of isoTimestamp has to give too.
const throughDate = (text: string) => new Date(text).toISOString();

describe('isoTimestamp', () => {
  it.for([
    '2026-11-26 16:55:15+00',
    '2026-11-26 16:55:15.1+00',
    '2026-11-26 16:55:15.18+00',
    '2026-11-26 16:55:15.184+00',
    '2026-11-26 16:55:15.184999+00',
    '2026-11-26 23:59:59.999999+00',
    '1970-01-01 00:00:00.000001+00',
  ])('writes the UTC text %s as Date does', (text) => {
    expect(isoTimestamp(text)).toBe(throughDate(text));
  });

  it('agrees with Date on ten thousand random instants with microseconds', () => {
    for (let i = 0; i < 10_000; i += 1) {
      const ms = Math.floor(Math.random() * 4_102_444_800_000);
      const micros = String(Math.floor(Math.random() * 1000)).padStart(3, '0');
      const text = `${new Date(ms).toISOString().slice(0, 23).replace('T', ' ')}${micros}+00`;
      expect(isoTimestamp(text)).toBe(throughDate(text));
    }
  });

  it('keeps a year below 100, which Date would read as 19xx', () => {
    expect(isoTimestamp('0050-01-01 00:00:00+00')).toBe('0050-01-01T00:00:00.000Z');
  });

  it.for([
    ['another session time zone', '2026-11-26 17:55:15.184+01', '2026-11-26T16:55:15.184Z'],
    ['an offset with minutes', '2026-11-26 22:25:15.184+05:30', '2026-11-26T16:55:15.184Z'],
    ['a Date', new Date(Date.UTC(2026, 10, 26, 16, 55, 15, 184)), '2026-11-26T16:55:15.184Z'],
  ] as const)('reads %s through Date', ([_what, value, expected]) => {
    expect(isoTimestamp(value)).toBe(expected);
  });
});
