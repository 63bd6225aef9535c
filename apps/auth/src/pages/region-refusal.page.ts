import type { FastifyReply } from 'fastify';
import { NOT_IN_REQUIRED_REGIONS } from '../clients/region-gate.ts';
import { html } from './html.ts';
import { sendPage } from './layout.ts';
import type { Locale } from './locale.ts';
import { messagesFor } from './messages.ts';

export interface RegionRefusalPage {
  locale: Locale;
  /** Registered by whoever runs the client: attacker-controlled text, escaped like all text. */
  clientName: string;
  /**
   * The client's redirect URI with the RFC 6749 4.1.2.1 error (access_denied, "User not in
   * required regions", state, iss): where "back" leads, so the client learns what happened.
   * Null for a device (RFC 8628), which learns it by polling: no link then.
   */
  returnUrl: string | null;
}

/**
 * docs/spec.md §5.2 rule 8: the user is signed in but a member of none of the client's required
 * regions. Rather than bouncing them back to the client unexplained, the page says why and names
 * the client; its one link (no form, no script) returns to the client with the error response.
 * 403: the request was understood and is refused for this user.
 */
export function sendRegionRefusalPage(reply: FastifyReply, page: RegionRefusalPage) {
  const { notInRegions, technicalDetail } = messagesFor(page.locale);
  return sendPage(reply, {
    locale: page.locale,
    status: 403,
    title: notInRegions.title,
    body: html`<h1>${notInRegions.title}</h1>
      <p>${notInRegions.text(page.clientName)}</p>
      ${
        page.returnUrl === null
          ? null
          : html`<p>
              <a class="button" id="back-to-client" href="${page.returnUrl}"
                >${notInRegions.back(page.clientName)}</a
              >
            </p>`
      }
      <p class="muted" id="region-refusal">
        ${technicalDetail}: <code>${NOT_IN_REQUIRED_REGIONS}</code>
      </p>`,
  });
}
