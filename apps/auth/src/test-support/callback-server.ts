import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A relying party's redirect URI on a real socket, for a browser to land on. */
export interface CallbackServer {
  server: Server;
  url: string;
}

/** Answers every request with a short page, at `url` on a free loopback port. */
export async function startCallbackServer(): Promise<CallbackServer> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('callback reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/callback` };
}
