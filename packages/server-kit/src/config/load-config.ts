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
  // Checked variable by variable: one clear line each, however many are wrong.
  const required = new Set(schema.required ?? []);
  const bad = new Map<string, string>();
  for (const [name, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
    if (value[name] === undefined) {
      if (required.has(name)) bad.set(name, `${name}: is required`);
    } else if (!Value.Check(property, value[name])) {
      bad.set(name, `${name}: ${describe(property)}`);
    }
  }
  // The rules across variables run too, on the valid ones (a bad one counts as left out), so
  // that one run names everything a deployment has to fix, not half of it.
  const checked = Object.fromEntries(Object.entries(value).filter(([name]) => !bad.has(name)));
  const ruleProblems = rules
    .flatMap((rule) => applyRule(rule, checked as Static<T>, bad.size > 0))
    .filter((problem) => !bad.has(variableOf(problem)));
  const problems = [...bad.values(), ...ruleProblems];
  if (problems.length > 0) throw new ConfigError(problems);
  return value as Static<T>;
}

/** The variable a problem names first (`NAME: what is wrong`). */
function variableOf(problem: string): string {
  return /^([A-Z0-9_]+):/.exec(problem)?.[1] ?? '';
}

// With bad variables left out a rule may meet a value missing that it takes for granted; it
// then has nothing to add to the problems already found.
function applyRule<C>(rule: (config: C) => string[], config: C, incomplete: boolean): string[] {
  if (!incomplete) return rule(config);
  try {
    return rule(config);
  } catch {
    return [];
  }
}

function describe(property: TSchema): string {
  const options = (property as { anyOf?: { const?: unknown }[] }).anyOf;
  if (options?.every((option) => option.const !== undefined)) {
    return `must be one of ${options.map((option) => String(option.const)).join(', ')}`;
  }
  const { type, pattern, minLength, minimum, maximum } = property as {
    type?: string;
    pattern?: string;
    minLength?: number;
    minimum?: number;
    maximum?: number;
  };
  const range =
    minimum !== undefined || maximum !== undefined
      ? ` from ${minimum ?? '-∞'} to ${maximum ?? '∞'}`
      : '';
  if (pattern) return `must match ${pattern}`;
  if (minLength !== undefined) return `must be at least ${minLength} characters long`;
  return `must be ${type === 'integer' ? 'an integer' : `a ${type ?? 'valid value'}`}${range}`;
}
