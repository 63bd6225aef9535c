import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { launchChromium } from '@foodshare/testing/browser';
import type { AxeResults } from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it, test } from '../test-support/fixtures.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');
const STEP_TIMEOUT_MS = 30_000;
// Loading Swagger UI's bundle, drawing every operation, then axe's checks: up to 35 s each,
// measured on a machine of two cores under a load average of 18.
const TEST_TIMEOUT_MS = 90_000;

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
];

// The page-side code, as text: the api is compiled without the DOM's types.
/** Before any script of the page: a refusal of the CSP is reported to the page only. */
const RECORD_CSP_VIOLATIONS = `
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
  });`;
const RUN_AXE = `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })`;
const WIDTHS = `({ scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth })`;

/** The violations of WCAG 2 A and AA that axe-core finds on the page as it is. */
async function wcagViolations(page: Page): Promise<string[]> {
  // Through the debugging protocol, which the page's CSP does not govern (an inline script
  // tag would be refused, as it should be).
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate<AxeResults>(RUN_AXE);
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? ''}): ${violation.help}\n    ` +
      violation.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''}`)
        .join('\n    '),
  );
}

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
        const widths = await page.evaluate<{ scroll: number; inner: number }>(WIDTHS);
        expect(widths.scroll, 'no horizontal scrolling').toBeLessThanOrEqual(widths.inner);
        expect(await page.evaluate('window.cspViolations')).toEqual([]);
        expect(consoleErrors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
