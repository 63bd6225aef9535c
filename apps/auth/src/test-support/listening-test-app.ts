import { freePort } from '@foodshare/testing';
import { buildTestApp, type TestApp } from './build-test-app.ts';

/**
 * The production app on a real socket at 127.0.0.1, with BASE_URL set to that origin so that
 * the issuer in discovery and tokens is the URL clients actually use (a relying-party library
 * compares them byte for byte). For tests that need real HTTP: cookies, redirects, a client
 * library or a browser.
 */
export async function listenTestApp(
  overrides: Record<string, string> = {},
): Promise<TestApp & { origin: string }> {
  // Another process may take the port between the probe and the listen: try a few.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const built = await buildTestApp({ ...overrides, BASE_URL: origin });
    const { app } = built;
    try {
      await app.listen({ host: '127.0.0.1', port });
      return { ...built, origin };
    } catch (error) {
      await app.close();
      if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}
