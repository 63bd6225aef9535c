import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

// What the browser tests check of every page they show, as page-side code in text: the
// services are compiled without the DOM's types.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

/** Before any script of the page (`addInitScript`): a refusal of the CSP is recorded. */
export const RECORD_CSP_VIOLATIONS = `
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
  });`;

/** The page's scroll width beside the window's: wider means a horizontal scroll. */
export const PAGE_WIDTHS = `({ scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth })`;

const RUN_AXE = `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })`;

/** The violations of WCAG 2 A and AA that axe-core finds on the page as it is. */
export async function wcagViolations(page: Page): Promise<string[]> {
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
