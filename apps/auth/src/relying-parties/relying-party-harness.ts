import { createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FormBrowser, storeCookie, userActs } from '@foodshare/relying-party';

/**
 * What every relying-party test shares: the user's browser on our pages (FormBrowser, with a
 * cookie jar for our origin), a bounded wait, and a loopback server for the relying party's own
 * pages. The relying parties themselves are the real software; only the user is simulated.
 */

/** Rejects after `ms`, naming what did not happen: no wait of these tests is unbounded. */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The Location of a redirect, or the test fails showing what came instead. */
export async function redirectTarget(response: Response, base: string): Promise<URL> {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status >= 400 || !location) {
    throw new Error(`expected a redirect, got ${response.status}: ${await response.text()}`);
  }
  return new URL(location, base);
}

/**
 * The user signs in on our pages (login, then consent) for the authorization request at `url`;
 * the URL our server sent the browser back to (the relying party's redirect URI).
 */
export function signInOnOurPages(auth: FormBrowser, url: URL | string, email: string) {
  return auth.authorize(String(url), userActs(email));
}

/**
 * Whether our server still knows the user: an authorization request of `url` (with the user's
 * cookies) goes straight back to the client when signed in, and shows the login page when not.
 */
export async function showsLoginPage(auth: FormBrowser, url: URL | string): Promise<boolean> {
  const before = auth.pagesShown.length;
  await auth
    .authorize(String(url), () => {
      throw new Error('stop');
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error && error.message === 'stop')) throw error;
    });
  // The page shown (if any) was recorded before the action threw.
  return auth.pagesShown.slice(before).includes('login');
}

/** A node:http server on a free loopback port; `close` ends its connections too. */
export async function listenLoopback(
  listener: RequestListener,
): Promise<{ server: Server; origin: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A browser's top-level navigations to one site (GET only, redirects not followed, cookies
 * kept), sent with the headers a browser sends for them. For relying parties that tell a
 * navigation from a script's request by those headers (mod_auth_openidc answers 401 instead of
 * redirecting to sign-in when Sec-Fetch-Mode is not "navigate"); fetch cannot send them, since
 * it always says "cors", so this goes through node:http.
 */
export class NavigatingBrowser {
  readonly origin: string;
  private readonly cookies = new Map<string, string>();

  constructor(origin: string) {
    this.origin = origin;
  }

  navigate(url: string, timeoutMs = 15_000): Promise<Response> {
    const target = new URL(url, this.origin);
    if (target.origin !== this.origin) throw new Error(`${target.href} is not on ${this.origin}`);
    const headers: Record<string, string> = {
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      'accept-language': 'en',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
      'sec-fetch-site': 'none',
    };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    return new Promise((resolve, reject) => {
      const sent = request(target, { headers, timeout: timeoutMs }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          for (const line of answer.headers['set-cookie'] ?? []) storeCookie(this.cookies, line);
          const location = answer.headers.location;
          resolve(
            new Response(Buffer.concat(chunks), {
              status: answer.statusCode ?? 0,
              headers: location ? { location } : {},
            }),
          );
        });
      });
      sent.on('timeout', () => sent.destroy(new Error(`no answer from ${target.href}`)));
      sent.on('error', reject);
      sent.end();
    });
  }
}

export { FormBrowser };
