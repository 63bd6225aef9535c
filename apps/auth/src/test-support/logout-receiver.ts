import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got. */
export interface ReceivedLogout {
  path: string;
  contentType: string | undefined;
  form: URLSearchParams;
}

/** How the receiver answers the next request: a status, or 'hold' until `release()`. */
export type ReceiverAnswer = number | 'hold';

/**
 * A relying party's back-channel logout endpoint on a real socket (node:http, loopback): it
 * records every request and answers each with the next queued answer (200 when none is queued).
 */
export async function startLogoutReceiver() {
  const received: ReceivedLogout[] = [];
  const answers: ReceiverAnswer[] = [];
  const held: ServerResponse[] = [];
  let waiters: ((logout: ReceivedLogout) => void)[] = [];

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const logout: ReceivedLogout = {
        path: request.url ?? '',
        contentType: request.headers['content-type'],
        form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      };
      received.push(logout);
      const answer = answers.shift() ?? 200;
      if (answer === 'hold') held.push(response);
      else response.writeHead(answer).end();
      const waiting = waiters;
      waiters = [];
      for (const resolve of waiting) resolve(logout);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    /** Queues how the next requests are answered. */
    answer(...next: ReceiverAnswer[]) {
      answers.push(...next);
    },
    /** The next request to arrive (or the `count`-th received, when it is there already). */
    nth(count: number): Promise<ReceivedLogout> {
      const already = received[count - 1];
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => {
        const check = () => {
          const got = received[count - 1];
          if (got) resolve(got);
          else waiters.push(check);
        };
        waiters.push(check);
      });
    },
    /** Answers every held request with 200. */
    release() {
      // A held request the sender gave up on has lost its connection: nothing to answer.
      for (const response of held.splice(0)) {
        if (!response.destroyed) response.writeHead(200).end();
      }
    },
    reset() {
      received.length = 0;
      answers.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held.splice(0)) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
