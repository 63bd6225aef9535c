import fc from 'fast-check';

/** The part of JSON Schema that the routes' TypeBox schemas and the OpenAPI document use. */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Strings that have broken parsers, databases and encoders before. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '0',
  '-1',
  '01',
  '1.5',
  '1e3',
  '2147483648',
  '9'.repeat(40),
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  '../../etc/passwd',
  '%00',
  '%',
  'ü'.repeat(300),
  'x'.repeat(5000),
  '\r\nX-Injected: 1',
  '2026-13-45T99:99:99Z',
  '1,2,,3',
];

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** Any JSON value of a few levels, biased towards the values that break things. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom(0, -1, 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1.5, -0),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    hostileString,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

function types(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  return [];
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // fast-check cannot generate from every regular expression (lookaheads); plain strings
      // then, which the route will mostly refuse.
    }
  }
  switch (schema.format) {
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'email':
      return fc.emailAddress();
    case 'uuid':
      return fc.uuid();
    default:
      return fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.min(schema.maxLength ?? 300, 300),
      });
  }
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum ?? -(2 ** 31)) + (integer ? 1 : 0);
  const high = schema.maximum ?? (schema.exclusiveMaximum ?? 2 ** 31 - 1) - (integer ? 1 : 0);
  if (!integer) return fc.double({ min: low, max: high, noNaN: true });
  // Small values name rows that exist; the whole range finds the overflows.
  return fc.oneof(
    fc.integer({ min: Math.max(low, 0), max: Math.max(Math.min(high, 60), Math.max(low, 0)) }),
    fc.integer({ min: low, max: high }),
  );
}

/** A value that the schema accepts (as far as a generator can know without a validator). */
export function conformingValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => conformingValue(choice, depth)));
  if (schema.allOf?.length) return conformingValue(schema.allOf[0]!, depth);
  const options = types(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string':
        return stringFor(schema);
      case 'integer':
        return numberFor(schema, true);
      case 'number':
        return numberFor(schema, false);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return depth > 3
          ? fc.constant([])
          : fc.array(schemaValue(schema.items ?? {}, depth + 1), {
              maxLength: Math.min(schema.maxItems ?? 5, 5),
            });
      case 'object':
        return objectFor(schema, depth);
      default:
        return hostileValue;
    }
  });
  return options.length ? fc.oneof(...options) : hostileValue;
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const fields = Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, schemaValue(value, depth + 1)]),
  );
  // Every key may be missing: a missing required key is one of the faults to send.
  const known = fc.record(fields, { requiredKeys: [] });
  const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), hostileValue, {
    maxKeys: 2,
  });
  return fc.tuple(known, extra).map(([own, more]) => ({ ...more, ...own }));
}

/** Mostly what the schema describes, sometimes anything at all. */
export function schemaValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: conformingValue(schema, depth) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** A path or query value: a string the schema accepts, a small id, or a hostile string. */
export function parameterValue(schema: JsonSchema): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: conformingValue(schema).map((value) =>
        typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 60 }).map(String) },
    { weight: 2, arbitrary: hostileString },
  );
}
