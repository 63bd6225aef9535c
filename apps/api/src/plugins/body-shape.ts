/**
 * How a body is brought to the shape its route's schema describes before it is validated:
 * keys the schema does not name are dropped (the platform's clients send extra ones), and a
 * form's text values become the booleans and numbers the schema asks for. Plain JSON Schema
 * walking, no Fastify: the plugin applies it, and it is tested on its own.
 */

export interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

/** An object as JSON or a form gives it (not an array, not an instance of a class). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The body without the top-level keys the schema does not name; anything else as it was. */
export function withoutUnknownKeys(schema: SchemaNode, body: unknown): unknown {
  const properties = schema.properties;
  if (!isPlainObject(body) || properties === undefined) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => Object.hasOwn(properties, key)));
}

/** The body with only the top-level keys `keep` accepts. */
export function keepingKeys(body: unknown, keep: (key: string) => boolean): unknown {
  if (!isPlainObject(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => keep(key)));
}

// As the platform (PHP) reads a form: a checkbox sends 1 or 0, a script true or false.
const BOOLEANS: Readonly<Record<string, boolean>> = { 1: true, true: true, 0: false, false: false };
// Whole decimal numbers only: "1.5", "1e3", "0x1A" or "" are not integers and stay text, to
// be refused by the validation that follows rather than silently truncated.
const INTEGER = /^-?\d{1,15}$/;
const DECIMAL = /^-?\d{1,15}(\.\d{1,15})?$/;

/**
 * A form value (text, or arrays and objects of text as PHP-style brackets build them) turned
 * into what the schema asks for where the text says so unambiguously; anything else is left
 * as it is, for the validation to refuse.
 */
export function coerceFormValue(schema: SchemaNode, value: unknown): unknown {
  if (schema.anyOf) {
    // Text stays text where the schema allows text; else the first member that reads it.
    if (schema.anyOf.some((member) => member.type === 'string')) return value;
    for (const member of schema.anyOf) {
      const coerced = coerceFormValue(member, value);
      if (coerced !== value) return coerced;
    }
    return value;
  }
  switch (schema.type) {
    case 'boolean':
      // A number only comes from JSON (a route that reads text scalars): 0 and 1 as a form's.
      if (value === 0 || value === 1) return value === 1;
      return typeof value === 'string' && Object.hasOwn(BOOLEANS, value) ? BOOLEANS[value] : value;
    case 'integer':
      return typeof value === 'string' && INTEGER.test(value) ? Number(value) : value;
    case 'number':
      return typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
    case 'array': {
      const items = schema.items;
      return Array.isArray(value) && items
        ? value.map((item) => coerceFormValue(items, item))
        : value;
    }
    case 'object': {
      const properties = schema.properties;
      if (!isPlainObject(value) || properties === undefined) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => {
          const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
          return [key, property ? coerceFormValue(property, item) : item];
        }),
      );
    }
    default:
      return value;
  }
}
