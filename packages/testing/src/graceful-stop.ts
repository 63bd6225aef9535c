import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Sends a request that takes tens of milliseconds (a login spends them in argon2), sends
 * SIGTERM while it runs, and reports what the client got and how the process ended.
 * A graceful stop answers the request and exits with 0.
 */
export async function stopDuringRequest(
  child: ChildProcess,
  origin: string,
): Promise<{ status: number; exitCode: number | null }> {
  const inFlight = fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.org', password: 'a password' }),
  });
  await new Promise((resolve) => setTimeout(resolve, 5));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  child.kill('SIGTERM');
  const { status } = await inFlight;
  const [exitCode] = await exited;
  return { status, exitCode };
}
