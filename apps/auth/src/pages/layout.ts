import type { FastifyReply } from 'fastify';
import { html, type SafeHtml } from './html.ts';
import type { Locale } from './locale.ts';
import { messagesFor } from './messages.ts';
import { STYLESHEET_URL } from './stylesheet.ts';

// No script and no inline style at all: the pages work without JavaScript, and markup injected
// if escaping ever failed could neither run nor restyle the page (a fake form over the real
// one). Styles come from the one stylesheet of this service. frame-ancestors 'none' stops
// clickjacking of the consent and admin buttons. There is deliberately no form-action: Chromium
// applies it to the redirect that follows a form POST, and the consent and login forms end in a
// 303 to the client's registered redirect URI, which is on another origin.
function contentSecurityPolicy(images: 'self' | 'https'): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    // The consent page shows the client's registered logo (https only, docs/oauth.md §2.11).
    images === 'https' ? "img-src 'self' data: https:" : "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

// The platform's mark: a leaf in a rounded square, drawn inline (no request, no inline style).
const MARK = html`<svg class="mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
  <rect width="32" height="32" rx="8" fill="currentColor" />
  <path class="leaf" d="M9 23c0-8 5-14 15-14 0 9-5 14-13 14M9 23l-1.5 2M12.5 19.5l5-5" />
</svg>`;

export interface PageOptions {
  locale: Locale;
  title: string;
  body: SafeHtml;
  status?: number;
  /** The admin pages' tables need the width; the sign-in pages stay narrow. */
  wide?: boolean;
  /** Which images the page may load: its own, or any https (the consent page's client logo). */
  images?: 'self' | 'https';
}

/** Sends a complete page with the frame and the headers every page of ours carries. */
export function sendPage(
  reply: FastifyReply,
  { locale, title, body, status = 200, wide = false, images = 'self' }: PageOptions,
) {
  const { platformName, host } = reply.server.pageSettings;
  const { frame } = messagesFor(locale);
  const page = html`<!doctype html>
    <html lang="${locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="color-scheme" content="light dark" />
        <title>${title} – ${platformName}</title>
        <link rel="stylesheet" href="${STYLESHEET_URL}" />
      </head>
      <body${wide ? html` class="wide"` : null}>
        <header class="site-header">
          <span class="brand">${MARK}<span>${platformName}</span></span>
        </header>
        <main>
          <div class="card">${body}</div>
        </main>
        <footer class="site-footer">
          <p>${frame.footer(platformName, host)}</p>
        </footer>
      </body>
    </html>`;
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', contentSecurityPolicy(images))
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .header('content-language', locale)
    .header('vary', 'Accept-Language, Cookie')
    .send(page.value);
}
