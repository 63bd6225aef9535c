import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { coerceFormValue, keepingKeys, withoutUnknownKeys } from './body-shape.ts';

const Body = Type.Object({
  flag: Type.Optional(Type.Boolean()),
  count: Type.Optional(Type.Integer()),
  ratio: Type.Optional(Type.Number()),
  ids: Type.Optional(Type.Array(Type.Integer())),
  name: Type.Optional(Type.String()),
  maybe: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  either: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
});

describe('withoutUnknownKeys', () => {
  it('keeps the keys the schema names and drops the others', () => {
    expect(withoutUnknownKeys(Body, { name: 'x', modificationDate: '2024', count: 1 })).toEqual({
      name: 'x',
      count: 1,
    });
  });

  it.each([[undefined], [null], ['text'], [[1, 2]]])('leaves %j as it is', (body) => {
    expect(withoutUnknownKeys(Body, body)).toEqual(body);
  });
});

describe('keepingKeys', () => {
  it('keeps what the predicate accepts', () => {
    expect(keepingKeys({ a: 1, b: 2 }, (key) => key === 'b')).toEqual({ b: 2 });
  });
});

describe('coerceFormValue: a form read as the body schema says', () => {
  it.each([
    ['1 as a boolean', { flag: '1' }, { flag: true }],
    ['0 as a boolean', { flag: '0' }, { flag: false }],
    ['true as a boolean', { flag: 'true' }, { flag: true }],
    ['false as a boolean', { flag: 'false' }, { flag: false }],
    ['a whole number', { count: '42' }, { count: 42 }],
    ['a negative whole number', { count: '-3' }, { count: -3 }],
    ['a decimal number', { ratio: '1.5' }, { ratio: 1.5 }],
    ['an array of integers', { ids: ['1', '2'] }, { ids: [1, 2] }],
    ['a nullable integer', { maybe: '7' }, { maybe: 7 }],
    ['text where text is allowed beside a number', { either: '7' }, { either: '7' }],
    ['text for a string', { name: '12' }, { name: '12' }],
    ['an unknown key, untouched', { other: '1' }, { other: '1' }],
  ])('reads %s', (_what, form, expected) => {
    expect(coerceFormValue(Body, form)).toEqual(expected);
  });

  // Left as text for the validation to refuse, never guessed or truncated.
  it.each([
    ['yes as a boolean', { flag: 'yes' }],
    ['2 as a boolean', { flag: '2' }],
    ['an empty boolean', { flag: '' }],
    ['a decimal as an integer', { count: '1.5' }],
    ['an exponent as an integer', { count: '1e3' }],
    ['hexadecimal as an integer', { count: '0x1A' }],
    ['an empty integer', { count: '' }],
    ['padded digits', { count: ' 7' }],
    ['a single value for an array', { ids: '3' }],
  ])('leaves %s as text', (_what, form) => {
    expect(coerceFormValue(Body, form)).toEqual(form);
  });
});
