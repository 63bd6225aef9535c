import type { Static, TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Validates an environment against a TypeBox schema: unknown variables are ignored,
 * defaults applied, strings converted to the declared types, and every bad variable is
 * named in one error, so that a deployment is fixed in one go.
 */
export function loadConfigFrom<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined>,
  /** Rules across variables; each returns the problems it finds. */
  rules: ((config: Static<T>) => string[])[] = [],
): Static<T> {
  const known = Object.fromEntries(
    Object.keys(schema.properties)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const value = Value.Convert(schema, Value.Default(schema, known)) as Record<string, unknown>;
  if (Value.Check(schema, value)) {
    const problems = rules.flatMap((rule) => rule(value));
    if (problems.length > 0) throw new ConfigError(problems);
    return value;
  }
  // Checked variable by variable: one clear line each, however many are wrong.
  const required = new Set(schema.required ?? []);
  const problems = Object.entries(schema.properties as Record<string, TSchema>).flatMap(
    ([name, property]) => {
      if (value[name] === undefined) return required.has(name) ? [`${name}: is required`] : [];
      return Value.Check(property, value[name]) ? [] : [`${name}: ${describe(property)}`];
    },
  );
  throw new ConfigError(problems);
}

function describe(property: TSchema): string {
  const options = (property as { anyOf?: { const?: unknown }[] }).anyOf;
  if (options?.every((option) => option.const !== undefined)) {
    return `must be one of ${options.map((option) => String(option.const)).join(', ')}`;
  }
  const { type, pattern, minimum, maximum } = property as {
    type?: string;
    pattern?: string;
    minimum?: number;
    maximum?: number;
  };
  const range =
    minimum !== undefined || maximum !== undefined
      ? ` from ${minimum ?? '-∞'} to ${maximum ?? '∞'}`
      : '';
  if (pattern) return `must match ${pattern}`;
  return `must be ${type === 'integer' ? 'an integer' : `a ${type ?? 'valid value'}`}${range}`;
}
