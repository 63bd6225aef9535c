import { spawn } from 'node:child_process';

export interface ExitedProcess {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a Node script (with the development condition) in an environment of exactly `env`
 * plus PATH, and waits for it to exit: a start expected to fail. Killed after `timeoutMs`,
 * which the test then sees as exit code null.
 */
export function runUntilExit(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ExitedProcess> {
  const child = spawn(process.execPath, ['--conditions=development', script, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}
