import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

/**
 * Listens, and on SIGTERM or SIGINT stops accepting, lets in-flight requests finish, then
 * closes PostgreSQL and Redis (the app's onClose hooks). A second signal, or 10 s, forces
 * the exit, so an orchestrator's shutdown grace period is never outlived.
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
  await app.listen(address);
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    closing = true;
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
}
