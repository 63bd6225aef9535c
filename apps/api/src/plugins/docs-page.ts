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
 * Swagger UI without its top bar (`BaseLayout`): the bar holds an unlabelled URL field and a
 * logo without alt text, and this page shows one document only.
 */
export const DOCS_PAGE_UI_CONFIG = {
  layout: 'BaseLayout',
  docExpansion: 'list',
  deepLinking: true,
} as const;

/** The page's own style sheet, served as a file next to Swagger UI's (style-src 'self'). */
export const docsPageTheme = {
  title: 'Food-sharing platform REST interface',
  css: [{ filename: 'docs-page.css', content: DOCS_PAGE_CSS }],
};
