import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a native app does to receive its authorization response (RFC 8252 7.3): listen on a
 * loopback port the operating system picks at run time (port 0), and take the one request the
 * user's browser makes to `redirectUri`. `host` is where it listens; `name` how the redirect URI
 * writes it (an IP literal, or `localhost` as command-line clients do).
 */
export async function startLoopbackRedirectReceiver(
  options: { host?: string; name?: string; path?: string } = {},
) {
  const host = options.host ?? '127.0.0.1';
  const name = options.name ?? host;
  const path = options.path ?? '/callback';
  let deliver: (url: URL) => void = () => {};
  const received = new Promise<URL>((resolve) => (deliver = resolve));

  const server = createServer((request, response) => {
    // The app reads the response parameters off the request line, as a native app's
    // listener would, and tells the user to go back to the app.
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? name}`);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You may close this window.');
    deliver(url);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    redirectUri: `http://${name}:${port}${path}`,
    /** The URL the browser brought back, with code or error. */
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
