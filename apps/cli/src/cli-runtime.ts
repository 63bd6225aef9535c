import { AccountError } from '@foodshare/domain';
import { Command, InvalidArgumentError } from 'commander';
import { CliError, type CliEnvironment } from './cli-context.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
  fail(): void;
}

/** What every command group gets from main.ts: the environment and the process's streams. */
export interface CliRuntime {
  env: CliEnvironment;
  io: CliIo;
}

export interface JsonFlag {
  json?: boolean;
}

/** A leaf command: `--help` comes from commander, `--json` from here. */
export function leafCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .option('--json', 'print the result as JSON (errors as JSON on stderr)');
}

function errorCode(error: unknown): string {
  if (error instanceof AccountError || error instanceof CliError) return error.code;
  return 'FAILED';
}

/**
 * Runs a command's logic and prints its result: a line for people, or JSON with `--json`.
 * Errors go to stderr and set exit code 1; their messages are meant for the operator.
 */
export async function runCommand<T>(
  runtime: CliRuntime,
  flags: JsonFlag,
  action: () => Promise<T>,
  describe: (result: T) => string,
): Promise<void> {
  try {
    const result = await action();
    runtime.io.stdout(flags.json ? JSON.stringify(result, null, 2) : describe(result));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    runtime.io.stderr(
      flags.json
        ? JSON.stringify({ error: { code: errorCode(error), message } })
        : `error: ${message}`,
    );
    runtime.io.fail();
  }
}

export function parsePositiveInteger(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2_147_483_647) {
    throw new InvalidArgumentError('Expected a positive integer id.');
  }
  return Number(value);
}

/** The page size of the list commands. */
export function parseLimit(value: string): number {
  const limit = parsePositiveInteger(value);
  if (limit > 1000) throw new InvalidArgumentError('Expected a limit from 1 to 1000.');
  return limit;
}

export function parseOffset(value: string): number {
  return value === '0' ? 0 : parsePositiveInteger(value);
}

/** For repeatable options whose values may contain anything but a line break (URLs). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** For repeatable options of names: `--scope openid --scope profile` and `--scope "openid profile"` alike. */
export function collectList(value: string, previous: string[] | undefined): string[] {
  const items = value.split(/[\s,]+/).filter((item) => item !== '');
  return [...(previous ?? []), ...items];
}

export function collectIds(value: string, previous: number[] | undefined): number[] {
  return [...(previous ?? []), ...collectList(value, []).map(parsePositiveInteger)];
}

/** A code from a table of names (`store-manager`) or the integer itself (`2`). */
export function parseCode<T extends number>(
  kind: string,
  names: Readonly<Record<string, T>>,
): (value: string) => T {
  return (value) => {
    const key = value.trim().toLowerCase();
    if (key in names) return names[key]!;
    const codes = Object.values(names);
    if (/^[0-9]+$/.test(key) && codes.includes(Number(key) as T)) return Number(key) as T;
    const choices = Object.entries(names)
      .map(([name, code]) => `${name} (${code})`)
      .join(', ');
    throw new InvalidArgumentError(`Unknown ${kind}. Choose one of: ${choices}.`);
  };
}
