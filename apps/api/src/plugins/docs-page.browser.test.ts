import type { AddressInfo } from 'node:net';
import {
  launchChromium,
  PAGE_WIDTHS,
  RECORD_CSP_VIOLATIONS,
  wcagViolations,
} from '@foodshare/testing/browser';
import type { Browser } from 'playwright-core';
import { describe, expect, it, test } from '../test-support/fixtures.ts';

const STEP_TIMEOUT_MS = 30_000;
// Loading Swagger UI's bundle, drawing every operation, then axe's checks: up to 35 s each,
// measured on a machine of two cores under a load average of 18.
const TEST_TIMEOUT_MS = 90_000;

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
];

describe('the documentation page /api/docs in a real browser (headless Chromium)', () => {
  let browser: Browser;
  let origin: string;

  test.beforeAll(async ({ app }) => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);

  test.afterAll(async () => {
    await browser?.close();
  });

  it('sends a strict Content-Security-Policy with the page', async ({ anonymous }) => {
    const response = await anonymous.get('/api/docs/');
    expect(response.statusCode).toBe(200);
    const policy = String(response.headers['content-security-policy']);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'none'",
    ]) {
      expect(policy.split('; ')).toContain(directive);
    }
    expect(policy).not.toMatch(/unsafe-|\*/);
  });

  it.for(VIEWPORTS)(
    'passes axe-core at WCAG 2 A and AA at $name width, without a CSP violation',
    { timeout: TEST_TIMEOUT_MS },
    async (viewport) => {
      const context = await browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
        locale: 'en-US',
      });
      try {
        context.setDefaultTimeout(STEP_TIMEOUT_MS);
        const page = await context.newPage();
        await page.addInitScript(RECORD_CSP_VIOLATIONS);
        const consoleErrors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error' || /security policy/i.test(message.text())) {
            consoleErrors.push(message.text());
          }
        });
        await page.goto(`${origin}/api/docs/`);
        // Swagger UI has fetched the document and drawn the operations.
        await page.locator('.opblock').first().waitFor();
        await page.locator('.opblock-summary-control').first().click();
        await page.locator('.opblock-body').first().waitFor();

        expect(await wcagViolations(page)).toEqual([]);
        const widths = await page.evaluate<{ scroll: number; inner: number }>(PAGE_WIDTHS);
        expect(widths.scroll, 'no horizontal scrolling').toBeLessThanOrEqual(widths.inner);
        expect(await page.evaluate('window.cspViolations')).toEqual([]);
        expect(consoleErrors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
