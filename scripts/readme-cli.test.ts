import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_REDIS_URL, withDatabaseName } from '@foodshare/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docShellBlocks } from './readme-examples.ts';
import { onDatabaseServer, serverUrl } from './start-process.ts';

// The command line's blocks (docs/cli.md §1), pasted in order into a shell as a reader would, on a
// database of its own: every command must succeed, and `pnpm cli` runs this checkout's CLI.

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'apps', 'cli', 'src', 'main.ts');

const databaseName = `fs_test_readme_cli_${process.pid}`;

beforeAll(() => onDatabaseServer(`CREATE DATABASE ${databaseName}`));
afterAll(() => onDatabaseServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));

describe('the command line of docs/cli.md §1', () => {
  it('runs in order as printed, every command succeeding', async () => {
    const blocks = await docShellBlocks('docs/cli.md', '1. Commands');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    // `pnpm cli …` and `pnpm -s cli …` are this checkout's CLI; a failing command stops the
    // script (set -e, pipefail) and names itself through bash's xtrace.
    const script = [
      'set -euo pipefail',
      `pnpm() { [ "$1" = -s ] && shift; [ "$1" = cli ] || return 97; shift; "${process.execPath}" --conditions=development "${CLI}" "$@"; }`,
      'set -x',
      ...blocks,
    ].join('\n');
    const outcome = await run('bash', ['-c', script], {
      cwd: ROOT,
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: withDatabaseName(serverUrl, databaseName),
        REDIS_URL: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
        REDIS_KEY_PREFIX: `test:readme-cli:${process.pid}:`,
        PASSWORD: 'correct horse battery staple',
        NEW_PASSWORD: 'another correct horse battery',
      },
    }).then(
      () => ({ code: 0, output: '' }),
      (error: { code?: number; stderr?: string }) => ({
        code: error.code ?? -1,
        output: (error.stderr ?? '').split('\n').slice(-12).join('\n'),
      }),
    );
    expect(outcome).toEqual({ code: 0, output: '' });
  }, 300_000);
});
