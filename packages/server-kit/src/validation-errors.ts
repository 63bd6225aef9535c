import type { FastifySchemaValidationError } from 'fastify';
import { NUL_CHARACTER_KEYWORD, pointerToken } from './validation.ts';

/** One entry of a problem's `errors[]`: the field as a JSON Pointer, the rule in plain words. */
export interface FieldError {
  path: string;
  message: string;
}

type Issue = Pick<FastifySchemaValidationError, 'keyword' | 'instancePath' | 'params'> & {
  schemaPath?: string;
  message?: string;
};

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  email: 'an e-mail address',
  'date-time': 'a date and time (RFC 3339, e.g. 2024-05-17T12:34:56Z)',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time of day (RFC 3339)',
  uri: 'an absolute URI',
  url: 'an absolute URL',
  uuid: 'a UUID',
};

function plural(count: unknown, one: string, many: string): string {
  return `${String(count)} ${count === 1 ? one : many}`;
}

function typeNames(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((name) => TYPE_NAMES[String(name)] ?? String(name)).join(' or ');
}

/**
 * The rule an issue breaks, as a client's user can read it. Never the validator's own words
 * ("schema is false", a regular expression): they describe the validator, not the request.
 */
function ruleOf(issue: Issue): string {
  const params = issue.params;
  const limit = params.limit;
  switch (issue.keyword) {
    case 'type':
      return `must be ${typeNames(params.type)}`;
    case 'minLength':
      return limit === 1
        ? 'must not be empty'
        : `must be at least ${plural(limit, 'character', 'characters')}`;
    case 'maxLength':
      return `must be at most ${plural(limit, 'character', 'characters')}`;
    case 'pattern':
      return 'is not in the accepted form';
    case 'format': {
      const format = String(params.format);
      return `must be ${FORMAT_NAMES[format] ?? `in the ${format} format`}`;
    }
    case 'minimum':
      return `must be at least ${String(limit)}`;
    case 'maximum':
      return `must be at most ${String(limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(params.multipleOf)}`;
    case 'minItems':
      return `must have at least ${plural(limit, 'item', 'items')}`;
    case 'maxItems':
      return `must have at most ${plural(limit, 'item', 'items')}`;
    case 'uniqueItems':
      return 'must not contain the same item twice';
    case 'minProperties':
      return limit === 1
        ? 'must contain at least one field'
        : `must contain at least ${plural(limit, 'field', 'fields')}`;
    case 'maxProperties':
      return `must contain at most ${plural(limit, 'field', 'fields')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'boolean':
    case 'not':
      // `false` as a schema: a key no schema admits (`additionalProperties: false`).
      return 'is not allowed';
    default:
      // Our own check speaks of the request already; a validator's words for a rule we do not
      // know might not.
      return issue.keyword === NUL_CHARACTER_KEYWORD && issue.message
        ? issue.message
        : 'is invalid';
  }
}

/** The issues of one `anyOf`, as one rule: "must be a string or null", "must be one of …". */
function unionRule(branches: Issue[]): string {
  if (branches.length > 0 && branches.every((branch) => branch.keyword === 'const')) {
    const values = branches.map((branch) => JSON.stringify(branch.params.allowedValue));
    return `must be one of ${values.join(', ')}`;
  }
  if (branches.every((branch) => branch.keyword === 'type')) {
    return `must be ${branches.map((branch) => typeNames(branch.params.type)).join(' or ')}`;
  }
  const rules = [...new Set(branches.map(ruleOf))];
  return rules.length > 0 ? rules.join(', or ') : 'is invalid';
}

/**
 * A validator's issues as the `errors[]` of a problem: each names the field as a JSON Pointer
 * within the request part (`/body/name`, `/querystring/limit`) and the rule it breaks. A missing
 * or unknown key is named itself, not its parent; the branches of a union become one entry.
 */
export function fieldErrors(part: string, issues: readonly Issue[]): FieldError[] {
  const prefix = `/${pointerToken(part)}`;
  const unions = issues.filter((issue) => issue.keyword === 'anyOf' || issue.keyword === 'oneOf');
  const inUnion = (issue: Issue) =>
    unions.some(
      (union) =>
        union !== issue &&
        issue.schemaPath?.startsWith(`${union.schemaPath ?? ''}/${union.keyword}/`) === true,
    );
  const entries: FieldError[] = [];
  for (const issue of issues) {
    if (inUnion(issue)) continue;
    const at = `${prefix}${issue.instancePath}`;
    const params = issue.params;
    if (issue.keyword === 'required') {
      for (const key of params.requiredProperties as string[]) {
        entries.push({ path: `${at}/${pointerToken(key)}`, message: 'is required' });
      }
    } else if (issue.keyword === 'additionalProperties') {
      for (const key of params.additionalProperties as string[]) {
        entries.push({ path: `${at}/${pointerToken(key)}`, message: 'is not allowed' });
      }
    } else if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf') {
      const branchPath = `${issue.schemaPath ?? ''}/${issue.keyword}/`;
      const branches = issues.filter(
        (other) =>
          other.instancePath === issue.instancePath &&
          other.schemaPath?.startsWith(branchPath) === true,
      );
      entries.push({ path: at, message: unionRule(branches) });
    } else {
      entries.push({ path: at, message: ruleOf(issue) });
    }
  }
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = `${entry.path}\u0000${entry.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
