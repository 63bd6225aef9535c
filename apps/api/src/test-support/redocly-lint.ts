import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One finding of `redocly lint --format json`. */
export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

const CLI = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const RECORDER = fileURLToPath(new URL('./record-connections.ts', import.meta.url));

// The recommended rules, and nothing that reaches out: no telemetry, no check for a newer
// version, and a configuration of our own so that no `redocly.yaml` above is picked up.
const CONFIG = 'extends:\n  - recommended\ntelemetry: off\n';
const OFFLINE = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  CI: 'true',
};

/**
 * What Redocly's `recommended` ruleset finds in an OpenAPI document: the pinned `@redocly/cli`
 * run on a copy of it in a folder of its own, its JSON report read back, and every connection
 * it tried (none should be: without the settings above it looks a host up).
 */
export async function redoclyLint(
  document: unknown,
): Promise<{ problems: LintProblem[]; connections: string[] }> {
  const folder = await mkdtemp(join(tmpdir(), 'redocly-'));
  try {
    await writeFile(join(folder, 'openapi.json'), JSON.stringify(document));
    await writeFile(join(folder, 'redocly.yaml'), CONFIG);
    const report = join(folder, 'report.json');
    const connections = join(folder, 'connections.txt');
    await writeFile(connections, '');
    await run(
      process.execPath,
      [
        '--import',
        RECORDER,
        CLI,
        'lint',
        'openapi.json',
        '--config',
        'redocly.yaml',
        '--format',
        'json',
      ],
      {
        cwd: folder,
        env: { ...process.env, ...OFFLINE, RECORD_CONNECTIONS_TO: connections },
        timeout: 60_000,
        maxBuffer: 64 << 20,
      },
    ).then(
      ({ stdout }) => writeFile(report, stdout),
      // An error found is a non-zero exit; its report is still on standard output.
      (failure: { stdout?: string }) => writeFile(report, failure.stdout ?? ''),
    );
    const { problems } = JSON.parse(await readFile(report, 'utf8')) as { problems: LintProblem[] };
    const tried = (await readFile(connections, 'utf8')).split('\n').filter(Boolean);
    return { problems, connections: tried };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
