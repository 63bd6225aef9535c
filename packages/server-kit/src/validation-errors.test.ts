import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { fieldErrors } from './validation-errors.ts';
import { NUL_CHARACTER_KEYWORD } from './validation.ts';

const BodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 3 })),
    role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('member')])),
    note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    size: Type.Optional(Type.Number({ exclusiveMinimum: 0, multipleOf: 2 })),
    colour: Type.Optional(Type.Enum(['red', 'green'])),
    since: Type.Optional(Type.String({ format: 'date-time' })),
    inner: Type.Optional(Type.Object({ 'a/b': Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false, maxProperties: 4 },
);
const check = Compile(BodySchema);

describe('fieldErrors', () => {
  it.for<[string, unknown, { path: string; message: string }[]]>([
    ['an empty string', { name: '' }, [{ path: '/body/name', message: 'must not be empty' }]],
    [
      'a union of literals',
      { role: 'x' },
      [{ path: '/body/role', message: 'must be one of "admin", "member"' }],
    ],
    [
      'a union of types',
      { note: 5 },
      [{ path: '/body/note', message: 'must be a string or null' }],
    ],
    [
      'an exclusive bound',
      { size: 0 },
      [{ path: '/body/size', message: 'must be greater than 0' }],
    ],
    ['a multiple', { size: 3 }, [{ path: '/body/size', message: 'must be a multiple of 2' }]],
    [
      'an enum',
      { colour: 'blue' },
      [{ path: '/body/colour', message: 'must be one of "red", "green"' }],
    ],
    [
      'a format',
      { since: 'soon' },
      [
        {
          path: '/body/since',
          message: 'must be a date and time (RFC 3339, e.g. 2024-05-17T12:34:56Z)',
        },
      ],
    ],
    [
      'too many fields',
      { name: 'a', role: 'admin', note: null, size: 2, colour: 'red' },
      [{ path: '/body', message: 'must contain at most 4 fields' }],
    ],
    [
      'a nested unknown key, once, beside a missing one that needs escaping',
      { inner: { z: 1 } },
      [
        { path: '/body/inner/a~1b', message: 'is required' },
        { path: '/body/inner/z', message: 'is not allowed' },
      ],
    ],
    [
      'an unknown key at the top',
      { extra: 1 },
      [{ path: '/body/extra', message: 'is not allowed' }],
    ],
  ])('describes %s', ([_kind, value, expected]) => {
    expect(fieldErrors('body', check.Errors(value))).toEqual(expected);
  });

  it('never passes on the validator’s own words', () => {
    const errors = fieldErrors('body', check.Errors({ extra: 1, name: 'abcd', note: 1 }));
    expect(JSON.stringify(errors)).not.toMatch(
      /schema is false|anyOf|must NOT|additional properties/i,
    );
  });

  it('keeps a message of our own checks that speaks of the request', () => {
    const issue = {
      keyword: NUL_CHARACTER_KEYWORD,
      instancePath: '/x',
      params: {},
      message: 'must not contain U+0000',
    };
    expect(fieldErrors('body', [issue])).toEqual([
      { path: '/body/x', message: 'must not contain U+0000' },
    ]);
  });

  it('says "is invalid" for a rule it has no words for', () => {
    const issue = {
      keyword: 'if',
      instancePath: '',
      params: {},
      message: 'must match "then" schema',
    };
    expect(fieldErrors('querystring', [issue])).toEqual([
      { path: '/querystring', message: 'is invalid' },
    ]);
  });
});
