import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..');

/** The shell blocks of one `## ` section of a Markdown document of the repository, in order. */
export async function docShellBlocks(document: string, heading: string): Promise<string[]> {
  const text = await readFile(path.join(ROOT, document), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${document} has no "## ${heading}" section`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** The README's first request (log in, read the current user, log out), in order. */
export function readmeFirstRequest(): Promise<string[]> {
  return docShellBlocks('README.md', 'Try it');
}

/** The shell blocks of the endpoint examples (docs/rest-api.md §2), in order. */
export function endpointExamples(): Promise<string[]> {
  return docShellBlocks('docs/rest-api.md', '2. Endpoints');
}

/**
 * Runs the README's first request, then the endpoint examples of docs/rest-api.md §2, with bash
 * and curl against `origin`, as a reader would (in a scratch folder for the cookie jars and the
 * passport), and returns one line per curl call: `<status> <url>`. curl writes that line to
 * stderr, so the bodies change nothing. The name stays: the compatibility test of the next
 * release imports this function from this release's checkout.
 */
export async function runReadmeExamples(origin: string): Promise<string[]> {
  const blocks = [...(await readmeFirstRequest()), ...(await endpointExamples())];
  const script = [
    'set -eu',
    `curl() { command curl -sS -w '%{stderr}%{http_code} %{url_effective}\\n' "$@"; }`,
    ...blocks,
  ]
    .join('\n')
    .replaceAll('http://localhost:8080', origin)
    .replace(/^B=.*$/gm, `B=${origin}`);
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
