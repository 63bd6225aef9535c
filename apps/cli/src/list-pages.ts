import { Option, type Command } from 'commander';
import { parseLimit, parseOffset } from './cli-runtime.ts';

/** The flags `withPageOptions` adds: one page of a list ordered by id. */
export interface PageFlags {
  limit: number;
  offset: number;
}

/** Adds --limit (default 100, at most 1000) and --offset (default 0); `noun` names the items. */
export function withPageOptions(command: Command, noun: string): Command {
  return command
    .addOption(
      new Option('--limit <n>', `${noun} per page, 1 to 1000`).argParser(parseLimit).default(100),
    )
    .addOption(new Option('--offset <n>', `${noun} to skip`).argParser(parseOffset).default(0));
}

/** A list as text, an item a line, or `none` when it is empty. */
export function listText<T>(list: readonly T[], none: string, line: (item: T) => string): string {
  return list.length === 0 ? none : list.map((item) => line(item)).join('\n');
}
