import { describe, expect, it } from 'vitest';
import { readRecord, RecordFormats, writeRecord } from './record-format.ts';

describe('records shared across releases (docs/operations.md §1.2)', () => {
  const format = RecordFormats.consent;

  it('stores the format version beside the fields, and reads the fields back without it', () => {
    const raw = writeRecord(format, { scopes: ['openid'], grantedAt: 5 });
    expect(JSON.parse(raw)).toEqual({ scopes: ['openid'], grantedAt: 5, v: format.version });
    expect(readRecord(format, raw)).toEqual({ scopes: ['openid'], grantedAt: 5 });
  });

  it('reads the format of release 0.1.0, written without a version', () => {
    expect(readRecord(format, '{"scopes":["openid"],"grantedAt":5}')).toEqual({
      scopes: ['openid'],
      grantedAt: 5,
    });
    // An ended session of the oldest format was the user id alone.
    expect(readRecord(RecordFormats.endedSession, '42')).toBe(42);
  });

  it("keeps the fields of a later release's format that this one does not know", () => {
    expect(readRecord(format, '{"scopes":[],"grantedAt":5,"sid":"x","v":2}')).toEqual({
      scopes: [],
      grantedAt: 5,
      sid: 'x',
    });
  });

  it('refuses a version that is not a format number', () => {
    expect(() => readRecord(format, '{"v":"one"}')).toThrow(/remembered consent record/);
    expect(() => readRecord(format, '{"v":-1}')).toThrow(TypeError);
  });
});
