import { describe, expect, it } from 'vitest';
import { passportValidity } from './passport-validity.ts';

describe('passportValidity', () => {
  it.each([
    ['2026-11-22T10:00:00Z', '22.11.2026', '22.11.2029'],
    // 23:30 UTC on New Year's Eve is already the first of January in Germany.
    ['2026-12-31T23:30:00Z', '01.01.2027', '01.01.2030'],
    ['2028-02-29T12:00:00Z', '29.02.2028', '28.02.2031'],
    ['2029-03-01T12:00:00Z', '01.03.2029', '01.03.2032'],
  ])('made at %s: valid from %s until %s', (moment, validFrom, validUntil) => {
    expect(passportValidity(new Date(moment))).toEqual({ validFrom, validUntil });
  });
});
