import type { Static, TObject } from 'typebox';
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
 * named in one error so a deployment is fixed in one go.
 */
export function loadConfigFrom<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined>,
): Static<T> {
  const known = Object.fromEntries(
    Object.keys(schema.properties)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const value = Value.Convert(schema, Value.Default(schema, known));
  if (Value.Check(schema, value)) return value;
  const problems = Value.Errors(schema, value).map((error) => {
    const name = error.instancePath.replace(/^\//, '') || requiredName(error.params);
    return `${name}: ${error.message}`;
  });
  throw new ConfigError([...new Set(problems)]);
}

function requiredName(params: object): string {
  const missing = (params as { requiredProperties?: string[] }).requiredProperties;
  return missing?.join(', ') ?? '(environment)';
}
