import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// Debian's package (CI installs it, .ci/run); never a browser downloaded by `playwright install`.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Chromium for a browser test, offline but for the loopback servers the test starts. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's "chromium" package (CI does) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
export { PAGE_WIDTHS, RECORD_CSP_VIOLATIONS, wcagViolations } from './page-checks.ts';
