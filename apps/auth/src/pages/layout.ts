import type { FastifyReply } from 'fastify';
import { html, raw, type SafeHtml } from './html.ts';
import type { Locale } from './locale.ts';

// No script at all, inline styles only from this file: the pages work without JavaScript and
// an injected script would not run even if escaping ever failed. frame-ancestors 'none' stops
// clickjacking of the consent and admin buttons. There is deliberately no form-action: Chromium
// applies it to the redirect that follows a form POST, and the consent and login forms end in a
// 303 to the client's registered redirect URI, which is on another origin.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const STYLE = `
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}label{display:block;margin:.6rem 0 .2rem}
input[type=text],input[type=email],input[type=password],input[type=url],textarea,select{width:100%;padding:.4rem;box-sizing:border-box}
button{padding:.5rem 1rem;margin:.6rem .4rem 0 0}.error{color:#a00}.muted{color:#666}
a.button{display:inline-block;padding:.5rem 1rem;border:1px solid #767676;border-radius:2px;background:#efefef;color:inherit;text-decoration:none}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;vertical-align:top}
`;

export interface PageOptions {
  locale: Locale;
  title: string;
  body: SafeHtml;
  status?: number;
}

/** Sends a complete page with the headers every page of ours carries. */
export function sendPage(reply: FastifyReply, { locale, title, body, status = 200 }: PageOptions) {
  const page = html`<!doctype html>
    <html lang="${locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <style>
          ${raw(STYLE)}
        </style>
      </head>
      <body>
        ${body}
      </body>
    </html>`;
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .header('content-language', locale)
    .header('vary', 'Accept-Language, Cookie')
    .send(page.value);
}
