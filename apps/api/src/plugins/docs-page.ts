import { DOCS_PAGE_SCRIPT } from './docs-page-script.ts';
import { DOCS_PAGE_CSS } from './docs-page-style.ts';

/**
 * The documentation page's policy: its own scripts and styles only (@fastify/swagger-ui serves
 * the initializer as a file, so no inline script needs a hash), the page's data: icons, the
 * document fetched from this origin, and never framed, plugged in or re-based.
 */
export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * Swagger UI as WCAG 2 AA allows it:
 * - without its top bar (`BaseLayout`): the bar holds an unlabelled URL field and a logo
 *   without alt text, and this page shows one document only;
 * - without deep links: Swagger UI puts the link inside the button that opens an operation,
 *   and a control inside a control is lost to a screen reader (4.1.2);
 * - without syntax colours in the examples: several are below 4.5:1 on the dark background
 *   (1.4.3), and they are set inline, where a style sheet cannot reach them.
 */
export const DOCS_PAGE_UI_CONFIG = {
  layout: 'BaseLayout',
  docExpansion: 'list',
  deepLinking: false,
  syntaxHighlight: false,
} as const;

/** The page's own style sheet and script, served as files next to Swagger UI's ('self'). */
export const docsPageTheme = {
  title: 'Food-sharing platform REST interface',
  css: [{ filename: 'docs-page.css', content: DOCS_PAGE_CSS }],
  js: [{ filename: 'docs-page.js', content: DOCS_PAGE_SCRIPT }],
};
