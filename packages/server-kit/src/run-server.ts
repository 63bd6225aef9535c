import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

/** How long a stop waits for open connections to be used once more (and told to close). */
const DRAIN_MS = 1_000;

/**
 * Follows a server's requests so that a stop can let them end cleanly. Node's own close()
 * destroys idle keep-alive connections at once (a request already on its way over one is
 * reset) and stops enforcing the request timeout (a body that trickles in holds the stop for
 * the whole grace period).
 */
export function trackRequests(server: Server) {
  const inFlight = new Set<IncomingMessage>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    inFlight.add(request);
    response.once('close', () => inFlight.delete(request));
  });
  const openConnections = () =>
    new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
  return {
    /**
     * Waits, at most `DRAIN_MS`, for the open connections to finish and go; a request on a
     * keep-alive connection meanwhile is still answered (with `Connection: close`). Then
     * cuts the requests whose body has still not fully arrived.
     */
    async drain(): Promise<void> {
      const deadline = Date.now() + DRAIN_MS;
      while (Date.now() < deadline && (inFlight.size > 0 || (await openConnections()) > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      for (const request of inFlight) if (!request.complete) request.socket.destroy();
    },
  };
}

/**
 * Listens, and on SIGTERM or SIGINT stops: answers given meanwhile close their connection,
 * open connections get a moment to be used once more, a request body still trickling in is
 * cut, the requests under way finish, then PostgreSQL and Redis close (the app's onClose
 * hooks). A second signal, or 10 s, forces the exit, so an orchestrator's shutdown grace
 * period is never outlived.
 */
export async function runServer(
  app: FastifyInstance,
  address: { host: string; port: number },
): Promise<void> {
  let closing = false;
  // A keep-alive connection would outlive its last response and hold the close until the
  // grace period ends; answers sent while closing end their connection instead.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
  const requests = trackRequests(app.server);
  await app.listen(address);
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    closing = true;
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await requests.drain();
    await app.close();
  });
}
