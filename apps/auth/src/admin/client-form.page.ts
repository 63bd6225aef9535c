import {
  CLIENT_DISPLAY_URI_FIELDS,
  OAUTH_CLIENT_LIMITS,
  OAUTH_GRANT_TYPES,
  OAUTH_SCOPES,
} from '@foodshare/domain';
import { formTokenField } from '../pages/form-token.ts';
import { html, type SafeHtml } from '../pages/html.ts';
import { MAX_INDENT_DEPTH } from '../pages/stylesheet.ts';
import type { AdminTexts } from './admin-texts.ts';
import type { ClientFormErrors, ClientFormField, ClientFormValues } from './oauth-client-form.ts';
import type { RegionOption } from './oauth-clients-admin.service.ts';

export interface ClientFormOptions {
  texts: AdminTexts;
  values: ClientFormValues;
  errors: ClientFormErrors;
  regions: readonly RegionOption[];
  csrfToken: string;
  action: string;
  /** Creating: the client id is entered; editing: it is fixed (consents and tokens name it). */
  mode: 'create' | 'edit';
}

function fieldErrors(errors: ClientFormErrors, field: ClientFormField): SafeHtml {
  const messages = errors[field];
  if (!messages || messages.length === 0) return html``;
  return html`<ul class="error" id="${field}-errors">
    ${messages.map((message) => html`<li>${message}</li>`)}
  </ul>`;
}

function describedBy(errors: ClientFormErrors, field: ClientFormField): string {
  return errors[field] ? `${field}-hint ${field}-errors` : `${field}-hint`;
}

function checkbox(name: string, value: string, checked: boolean, label: string): SafeHtml {
  return html`<label class="check"
    ><input type="checkbox" name="${name}" value="${value}" ${checked ? html`checked` : null} />
    ${label}</label
  >`;
}

function regionPicker(
  regions: readonly RegionOption[],
  chosen: readonly string[],
  texts: AdminTexts,
  errors: ClientFormErrors,
): SafeHtml {
  return html`<fieldset aria-describedby="${describedBy(errors, 'requiredRegionIds')}">
    <legend>${texts.fields.requiredRegions}</legend>
    <p class="muted" id="requiredRegionIds-hint">${texts.fields.requiredRegionsHint}</p>
    ${fieldErrors(errors, 'requiredRegionIds')}
    <div class="regions">
      ${regions.map(
        (region) =>
          html`<label class="depth-${Math.min(region.depth, MAX_INDENT_DEPTH)}"
            ><input
              type="checkbox"
              name="requiredRegionIds"
              value="${region.id}"
              ${chosen.includes(String(region.id)) ? html`checked` : null}
            />
            ${region.name}</label
          >`,
      )}
    </div>
  </fieldset>`;
}

export function clientFormBody(options: ClientFormOptions): SafeHtml {
  const { texts, values, errors, regions, csrfToken, action, mode } = options;
  const f = texts.fields;
  const hasErrors = Object.keys(errors).length > 0;
  const clientIdField =
    mode === 'create'
      ? html`<label for="clientId">${f.clientId}</label>
          <input
            type="text"
            id="clientId"
            name="clientId"
            value="${values.clientId}"
            maxlength="100"
            required
            aria-describedby="${describedBy(errors, 'clientId')}"
          />
          <p class="muted" id="clientId-hint">${f.clientIdHint}</p>
          ${fieldErrors(errors, 'clientId')}`
      : html`<p>${f.clientId}: <code>${values.clientId}</code></p>`;

  return html`${hasErrors ? html`<p class="error" role="alert">${texts.formHasErrors}</p>` : null}
    <form method="post" action="${action}">
      ${formTokenField(csrfToken)} ${clientIdField}
      <label for="name">${f.name}</label>
      <input
        type="text"
        id="name"
        name="name"
        value="${values.name}"
        maxlength="${OAUTH_CLIENT_LIMITS.maxNameLength}"
        required
        aria-describedby="${describedBy(errors, 'name')}"
      />
      <p class="muted" id="name-hint">${f.nameHint}</p>
      ${fieldErrors(errors, 'name')}
      ${checkbox('confidential', 'on', values.confidential, f.confidential)}
      <p class="muted">${f.confidentialHint}</p>
      <label for="redirectUris">${f.redirectUris}</label>
      <textarea
        id="redirectUris"
        name="redirectUris"
        rows="4"
        required
        aria-describedby="${describedBy(errors, 'redirectUris')}"
      >
${values.redirectUris}</textarea>
      <p class="muted" id="redirectUris-hint">${f.redirectUrisHint}</p>
      ${fieldErrors(errors, 'redirectUris')}
      <label for="postLogoutRedirectUris">${f.postLogoutRedirectUris}</label>
      <textarea
        id="postLogoutRedirectUris"
        name="postLogoutRedirectUris"
        rows="2"
        aria-describedby="${describedBy(errors, 'postLogoutRedirectUris')}"
      >
${values.postLogoutRedirectUris}</textarea>
      <p class="muted" id="postLogoutRedirectUris-hint">${f.postLogoutRedirectUrisHint}</p>
      ${fieldErrors(errors, 'postLogoutRedirectUris')}
      <label for="backchannelLogoutUri">${f.backchannelLogoutUri}</label>
      <input
        type="url"
        id="backchannelLogoutUri"
        name="backchannelLogoutUri"
        value="${values.backchannelLogoutUri}"
        maxlength="${OAUTH_CLIENT_LIMITS.maxRedirectUriLength}"
        aria-describedby="${describedBy(errors, 'backchannelLogoutUri')}"
      />
      <p class="muted" id="backchannelLogoutUri-hint">${f.backchannelLogoutUriHint}</p>
      ${fieldErrors(errors, 'backchannelLogoutUri')}
      <fieldset>
        <legend>${f.consentPage}</legend>
        <p class="muted" id="displayUris-hint">${f.displayUrisHint}</p>
        ${CLIENT_DISPLAY_URI_FIELDS.map(
          (field) =>
            html`<label for="${field}">${f[field]}</label>
              <input
                type="url"
                id="${field}"
                name="${field}"
                value="${values[field]}"
                maxlength="${OAUTH_CLIENT_LIMITS.maxRedirectUriLength}"
                placeholder="https://"
                aria-describedby="${errors[field] ? `displayUris-hint ${field}-errors` : 'displayUris-hint'}"
              />
              ${fieldErrors(errors, field)}`,
        )}
      </fieldset>
      ${checkbox(
        'requirePushedAuthorizationRequests',
        'on',
        values.requirePushedAuthorizationRequests,
        f.requirePushedAuthorizationRequests,
      )}
      <p class="muted">${f.requirePushedAuthorizationRequestsHint}</p>
      ${checkbox('requireDpop', 'on', values.requireDpop, f.requireDpop)}
      <p class="muted">${f.requireDpopHint}</p>
      <fieldset>
        <legend>${f.scopes}</legend>
        ${OAUTH_SCOPES.map((scope) =>
          checkbox(
            'scopes',
            scope,
            values.scopes.includes(scope),
            texts.scopeDescriptions[scope] ?? scope,
          ),
        )}
        ${fieldErrors(errors, 'scopes')}
      </fieldset>
      <fieldset>
        <legend>${f.grantTypes}</legend>
        ${OAUTH_GRANT_TYPES.map((grant) =>
          checkbox(
            'grantTypes',
            grant,
            values.grantTypes.includes(grant),
            texts.grantDescriptions[grant] ?? grant,
          ),
        )}
        ${fieldErrors(errors, 'grantTypes')}
      </fieldset>
      ${regionPicker(regions, values.requiredRegionIds, texts, errors)}
      <button type="submit">${mode === 'create' ? texts.create : texts.save}</button>
    </form>`;
}
