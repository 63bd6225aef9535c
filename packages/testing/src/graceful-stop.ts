import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { type IncomingMessage, request } from 'node:http';

/**
 * Starts a login request but holds back the end of its body, sends SIGTERM while the
 * server waits for it, then completes the body, and reports what the client got and how
 * the process ended. A graceful stop answers the request and exits with 0. Holding the
 * body makes "under way" certain however slow the machine is.
 */
export async function stopDuringRequest(
  child: ChildProcess,
  origin: string,
): Promise<{ status: number; exitCode: number | null }> {
  const body = JSON.stringify({ email: 'nobody@example.org', password: 'a password' });
  const pending = request(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const response = once(pending, 'response') as Promise<[IncomingMessage]>;
  await new Promise<void>((resolve) => pending.write(body.slice(0, 10), () => resolve()));
  // Long enough for an idle server to have accepted the connection and read the headers.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 50));
  pending.end(body.slice(10));
  const [message] = await response;
  message.resume();
  const [exitCode] = await exited;
  return { status: message.statusCode ?? 0, exitCode };
}
