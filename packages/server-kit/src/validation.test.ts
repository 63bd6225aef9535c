import { describe, expect, it } from 'vitest';
import { findNulCharacter, rejectingNulCharacters } from './validation.ts';

describe('findNulCharacter', () => {
  it.each([
    ['a plain string', 'a\u0000b', ''],
    ['a property', { message: 'hi\u0000' }, '/message'],
    ['a nested array item', { kams: [1, { note: ['ok', '\u0000'] }] }, '/kams/1/note/1'],
    ['a key', { ok: 'x', 'bad\u0000key': 1 }, '/bad\\u0000key'],
    ['a key needing escapes', { 'a/b~c': '\u0000' }, '/a~1b~0c'],
  ])('finds it in %s', (_what, value, path) => {
    expect(findNulCharacter(value)).toBe(path);
  });

  it.each([
    ['null', null],
    ['a number', 5],
    ['an ordinary body', { body: 'Hallo \u0001 \\u0000', list: ['a', 1, true, null] }],
  ])('finds none in %s', (_what, value) => {
    expect(findNulCharacter(value)).toBeUndefined();
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = '\u0000';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(findNulCharacter(deep)).toBe('/0'.repeat(200_000));
  });
});

describe('rejectingNulCharacters', () => {
  const compile = rejectingNulCharacters(() => (data: unknown) => ({ value: data }));
  const validate = compile({ schema: {}, method: 'POST', url: '/', httpPart: 'body' });

  it('refuses a NUL with a validation error naming its place, and passes anything else on', () => {
    expect(validate({ name: 'x\u0000' })).toEqual({
      error: [expect.objectContaining({ instancePath: '/name', keyword: 'nulCharacter' })],
    });
    expect(validate({ name: 'x' })).toEqual({ value: { name: 'x' } });
  });
});
