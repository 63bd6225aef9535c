import type { FastifyReply } from 'fastify';
import { formTokenField } from '../../pages/form-token.ts';
import { html } from '../../pages/html.ts';
import { sendPage } from '../../pages/layout.ts';
import type { Locale } from '../../pages/locale.ts';
import { describeScope, messagesFor } from '../../pages/messages.ts';
import { CONSENT_PATH } from '../../pages/page-paths.ts';

/** What the client registered about itself (https URIs, checked at registration), or null. */
export interface ConsentClient {
  /** Registered by whoever runs the client: attacker-controlled text, escaped like all text. */
  name: string;
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
}

export interface ConsentPage {
  locale: Locale;
  /** The session's CSRF token, echoed by the forms. */
  token: string;
  requestId: string;
  client: ConsentClient;
  /** Who is signed in. */
  user: { name: string; email: string };
  /** The redirect URI the answer goes to; null for a device (RFC 8628), which polls for it. */
  redirectUri: string | null;
  scopes: readonly string[];
}

/**
 * What the user will see in the address bar after answering: the redirect URI's host, or for a
 * native app's own scheme (com.example.app:/cb) the scheme, which names the app.
 */
export function destinationOf(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.host === '' ? url.protocol.slice(0, -1) : url.host;
}

function clientLinks(page: ConsentPage) {
  const { consent } = messagesFor(page.locale);
  const { client } = page;
  const links = [
    [client.clientUri, consent.homePage],
    [client.policyUri, consent.privacyPolicy],
    [client.tosUri, consent.terms],
  ].filter((link): link is [string, string] => link[0] !== null);
  return html`${
    links.length === 0
      ? null
      : html`<ul class="client-links">
          ${links.map(
            ([href, text]) =>
              html`<li>
                <a href="${href}" rel="noopener noreferrer" target="_blank">${text}</a>
              </li>`,
          )}
        </ul>`
  }
  ${client.policyUri === null ? html`<p class="muted small">${consent.noPrivacyPolicy(client.name)}</p>` : null}`;
}

/**
 * The consent screen: who is signed in (and a way out if that is someone else), who asks, what
 * the client registered about itself, for what in plain words, where the answer goes, what
 * "remember this choice" means; allow and deny in one form (plain HTML; the layout forbids
 * framing, so the buttons cannot be clickjacked). The logo is the only thing loaded from
 * elsewhere, by the user's browser, never by the server (docs/oauth.md §2.11).
 */
export function sendConsentPage(reply: FastifyReply, page: ConsentPage) {
  const messages = messagesFor(page.locale);
  const { consent } = messages;
  const { client } = page;
  return sendPage(reply, {
    locale: page.locale,
    title: consent.title,
    images: client.logoUri === null ? 'self' : 'https',
    body: html`<h1>${consent.title}</h1>
      <div class="who">
        <span>${consent.signedInAs(page.user.name, page.user.email)}</span>
        <form method="post" action="/logout">
          ${formTokenField(page.token)}
          <input type="hidden" name="request" value="${page.requestId}" />
          <button type="submit" class="link" id="not-you">${consent.notYou}</button>
        </form>
      </div>
      <div class="client">
        ${
          client.logoUri === null
            ? null
            : html`<img
                class="client-logo"
                src="${client.logoUri}"
                alt="${consent.logoAlt(client.name)}"
                width="48"
                height="48"
                referrerpolicy="no-referrer"
              />`
        }
        <p>${consent.question(client.name, reply.server.pageSettings.platformName)}</p>
      </div>
      <ul class="scopes">
        ${page.scopes.map((scope) => html`<li>${describeScope(messages, scope)}</li>`)}
      </ul>
      ${clientLinks(page)}
      <p>
        ${
          page.redirectUri === null
            ? messages.device.destination
            : consent.destination(destinationOf(page.redirectUri))
        }
      </p>
      <form method="post" action="${CONSENT_PATH}">
        ${formTokenField(page.token)}
        <input type="hidden" name="request" value="${page.requestId}" />
        <label class="check"
          ><input type="checkbox" name="remember" value="on" aria-describedby="remember-hint" />
          <span>${consent.remember}</span></label
        >
        <p class="muted small" id="remember-hint">${consent.rememberHint(client.name)}</p>
        <div class="actions">
          <button type="submit" class="primary" name="decision" value="allow">
            ${consent.allow}
          </button>
          <button type="submit" name="decision" value="deny">${consent.deny}</button>
        </div>
      </form>`,
  });
}
