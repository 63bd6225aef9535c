import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The shell blocks of one `## ` section of the README, in order. */
export async function readmeShellBlocks(heading: string): Promise<string[]> {
  const readme = await readFile(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  const end = readme.indexOf('\n## ', start + 1);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section`);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** The shell blocks of the README's "## Endpoints" section, in order. */
export function readmeEndpointExamples(): Promise<string[]> {
  return readmeShellBlocks('Endpoints');
}

/**
 * Runs the README's endpoint examples with bash and curl against `origin`, as a reader would
 * (in a scratch folder for the cookie jars and the passport), and returns one line per curl
 * call: `<status> <url>`. curl writes that line to stderr, so the bodies change nothing.
 */
export async function runReadmeExamples(origin: string): Promise<string[]> {
  const blocks = await readmeEndpointExamples();
  const script = [
    'set -eu',
    `curl() { command curl -sS -w '%{stderr}%{http_code} %{url_effective}\\n' "$@"; }`,
    ...blocks,
  ]
    .join('\n')
    .replace(/^B=.*$/m, `B=${origin}`);
  const folder = await mkdtemp(path.join(tmpdir(), 'readme-examples-'));
  try {
    const shell = spawn('bash', ['-c', script], {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [exitCode] = (await once(shell, 'exit')) as [number | null];
    if (exitCode !== 0) throw new Error(`the README examples failed (${exitCode}):\n${stderr}`);
    return stderr.trim().split('\n');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
