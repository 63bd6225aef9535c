import {
  AccountError,
  OAUTH_CLIENT_LIMITS,
  OAUTH_GRANT_TYPES,
  OAUTH_SCOPES,
  backchannelLogoutUriProblemCode,
  CLIENT_DISPLAY_URI_FIELDS,
  CLIENT_NAME_MARKUP,
  clientDisplayUriProblemCode,
  type ClientDisplayUriField,
  redirectUriProblemCode,
  type OAuthClientInput,
} from '@foodshare/domain';
import { parseIdParam } from '@foodshare/schemas';
import { Type, type Static } from 'typebox';
import type { AdminTexts } from './admin-texts.ts';
import type { ClientDetail } from './oauth-clients-admin.service.ts';

/** An url-encoded form as @fastify/formbody parses it: a repeated name becomes an array. */
export const FormBodySchema = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Array(Type.String())]),
);
export type FormBody = Static<typeof FormBodySchema>;

/** What the client form holds, exactly as entered, so a refused form shows it again. */
export interface ClientFormValues {
  clientId: string;
  name: string;
  confidential: boolean;
  /** The textarea: one URI per line. */
  redirectUris: string;
  /** The textarea of RP-Initiated Logout's return addresses: one URI per line, may be empty. */
  postLogoutRedirectUris: string;
  /** RFC 9126 6: only pushed authorization requests. */
  requirePushedAuthorizationRequests: boolean;
  /** RFC 9449 5.2: only token requests with a DPoP proof. */
  requireDpop: boolean;
  /** Back-Channel Logout 1.0: one URI, may be empty. */
  backchannelLogoutUri: string;
  /** What the consent page shows of the client: one https URI each, may be empty. */
  logoUri: string;
  clientUri: string;
  policyUri: string;
  tosUri: string;
  scopes: string[];
  grantTypes: string[];
  requiredRegionIds: string[];
}

export type ClientFormField =
  | 'clientId'
  | 'name'
  | 'redirectUris'
  | 'postLogoutRedirectUris'
  | 'backchannelLogoutUri'
  | ClientDisplayUriField
  | 'scopes'
  | 'grantTypes'
  | 'requiredRegionIds';

export type ClientFormErrors = Partial<Record<ClientFormField, string[]>>;

export type ClientFormResult =
  | {
      ok: true;
      input: OAuthClientInput & {
        requiredRegionIds: number[];
        postLogoutRedirectUris: string[];
        requirePushedAuthorizationRequests: boolean;
        requireDpop: boolean;
        backchannelLogoutUri: string | null;
      } & Record<ClientDisplayUriField, string | null>;
    }
  | { ok: false; errors: ClientFormErrors };

export function formField(body: FormBody | undefined, name: string): string {
  const value = body?.[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function formList(body: FormBody | undefined, name: string): string[] {
  const value = body?.[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function readClientForm(body: FormBody | undefined): ClientFormValues {
  return {
    clientId: formField(body, 'clientId').trim(),
    name: formField(body, 'name'),
    confidential: formField(body, 'confidential') !== '',
    redirectUris: formField(body, 'redirectUris'),
    postLogoutRedirectUris: formField(body, 'postLogoutRedirectUris'),
    requirePushedAuthorizationRequests:
      formField(body, 'requirePushedAuthorizationRequests') !== '',
    requireDpop: formField(body, 'requireDpop') !== '',
    backchannelLogoutUri: formField(body, 'backchannelLogoutUri').trim(),
    logoUri: formField(body, 'logoUri').trim(),
    clientUri: formField(body, 'clientUri').trim(),
    policyUri: formField(body, 'policyUri').trim(),
    tosUri: formField(body, 'tosUri').trim(),
    scopes: formList(body, 'scopes'),
    grantTypes: formList(body, 'grantTypes'),
    requiredRegionIds: formList(body, 'requiredRegionIds'),
  };
}

/** A new client starts with what every client needs ticked. */
export function emptyClientForm(): ClientFormValues {
  return {
    clientId: '',
    name: '',
    confidential: false,
    redirectUris: '',
    postLogoutRedirectUris: '',
    requirePushedAuthorizationRequests: false,
    requireDpop: false,
    backchannelLogoutUri: '',
    logoUri: '',
    clientUri: '',
    policyUri: '',
    tosUri: '',
    scopes: ['openid'],
    grantTypes: ['authorization_code'],
    requiredRegionIds: [],
  };
}

export function clientFormFromDetail(client: ClientDetail): ClientFormValues {
  return {
    clientId: client.clientId,
    name: client.name,
    confidential: client.confidential,
    redirectUris: client.redirectUris.join('\n'),
    postLogoutRedirectUris: client.postLogoutRedirectUris.join('\n'),
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    requireDpop: client.requireDpop,
    backchannelLogoutUri: client.backchannelLogoutUri ?? '',
    logoUri: client.logoUri ?? '',
    clientUri: client.clientUri ?? '',
    policyUri: client.policyUri ?? '',
    tosUri: client.tosUri ?? '',
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    requiredRegionIds: client.requiredRegionIds.map(String),
  };
}

function splitLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * Checks the form field by field, so that every mistake is named next to its field in the
 * page's language. The domain service checks the same rules again (and the database's
 * constraints a third time); this pass exists to explain, not to protect.
 */
export function validateClientForm(
  values: ClientFormValues,
  texts: AdminTexts,
  backchannelLogoutAllowedHosts: readonly string[],
  /** At an edit, the client's URI as stored: kept unchanged, it is not checked again. */
  storedBackchannelLogoutUri: string | null = null,
): ClientFormResult {
  const errors: ClientFormErrors = {};
  const add = (field: ClientFormField, message: string) => {
    (errors[field] ??= []).push(message);
  };
  const t = texts.errors;

  if (values.clientId === '') add('clientId', t.clientIdRequired);
  else if (!OAUTH_CLIENT_LIMITS.clientIdPattern.test(values.clientId)) {
    add('clientId', t.clientIdFormat);
  }

  const name = values.name.trim();
  if (name === '') add('name', t.nameRequired);
  else if (name.length > OAUTH_CLIENT_LIMITS.maxNameLength) {
    add('name', t.nameTooLong(OAUTH_CLIENT_LIMITS.maxNameLength));
  } else if (CLIENT_NAME_MARKUP.test(name)) add('name', t.nameMarkup);

  const redirectUris = [...new Set(splitLines(values.redirectUris))];
  if (redirectUris.length === 0) add('redirectUris', t.redirectUrisRequired);
  if (redirectUris.length > OAUTH_CLIENT_LIMITS.maxRedirectUris) {
    add('redirectUris', t.tooManyRedirectUris(OAUTH_CLIENT_LIMITS.maxRedirectUris));
  }
  // A native app's own scheme is for public clients only, so the rules depend on the checkbox.
  const client = { confidential: values.confidential };
  for (const uri of redirectUris) {
    const problem = redirectUriProblemCode(uri, client);
    if (problem !== null) add('redirectUris', `${uri}: ${t.redirectUri[problem]}`);
  }

  // The same rules as redirect URIs (the domain service applies them to both), none required.
  const postLogoutRedirectUris = [...new Set(splitLines(values.postLogoutRedirectUris))];
  if (postLogoutRedirectUris.length > OAUTH_CLIENT_LIMITS.maxRedirectUris) {
    add('postLogoutRedirectUris', t.tooManyRedirectUris(OAUTH_CLIENT_LIMITS.maxRedirectUris));
  }
  for (const uri of postLogoutRedirectUris) {
    const problem = redirectUriProblemCode(uri, client);
    if (problem !== null) add('postLogoutRedirectUris', `${uri}: ${t.redirectUri[problem]}`);
  }

  // The server itself POSTs there: public https hosts only (the domain service checks it too).
  const backchannelLogoutUri =
    values.backchannelLogoutUri === '' ? null : values.backchannelLogoutUri;
  const backchannelProblem =
    backchannelLogoutUri === null || backchannelLogoutUri === storedBackchannelLogoutUri
      ? null
      : backchannelLogoutUriProblemCode(backchannelLogoutUri, backchannelLogoutAllowedHosts);
  if (backchannelProblem !== null) {
    add('backchannelLogoutUri', t.backchannelLogoutUri[backchannelProblem]);
  }

  // Links and a logo on the consent page: https only (the domain service checks it too).
  const displayUris = Object.fromEntries(
    CLIENT_DISPLAY_URI_FIELDS.map((field) => [field, values[field] === '' ? null : values[field]]),
  ) as Record<ClientDisplayUriField, string | null>;
  for (const field of CLIENT_DISPLAY_URI_FIELDS) {
    const uri = displayUris[field];
    const problem = uri === null ? null : clientDisplayUriProblemCode(uri);
    if (problem !== null) add(field, t.displayUri[problem]);
  }

  for (const scope of values.scopes) {
    if (!(OAUTH_SCOPES as readonly string[]).includes(scope)) add('scopes', t.unknownScope(scope));
  }
  if (!values.scopes.includes('openid')) add('scopes', t.openidRequired);

  for (const grant of values.grantTypes) {
    if (!(OAUTH_GRANT_TYPES as readonly string[]).includes(grant)) {
      add('grantTypes', t.unknownGrantType(grant));
    }
  }
  if (!values.grantTypes.includes('authorization_code')) {
    add('grantTypes', t.authorizationCodeRequired);
  }

  const requiredRegionIds = values.requiredRegionIds.map(parseIdParam);
  if (requiredRegionIds.some((id) => id === undefined || id < 1)) {
    add('requiredRegionIds', t.unknownRegion);
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      clientId: values.clientId,
      name,
      confidential: values.confidential,
      redirectUris,
      postLogoutRedirectUris,
      requirePushedAuthorizationRequests: values.requirePushedAuthorizationRequests,
      requireDpop: values.requireDpop,
      backchannelLogoutUri,
      ...displayUris,
      scopes: [...new Set(values.scopes)],
      grantTypes: [...new Set(values.grantTypes)],
      requiredRegionIds: [...new Set(requiredRegionIds as number[])],
    },
  };
}

/** A refusal of the domain service that concerns one field of the form, or null. */
export function fieldErrorsOf(error: unknown, texts: AdminTexts): ClientFormErrors | null {
  if (!(error instanceof AccountError)) return null;
  if (error.code === 'CLIENT_ID_TAKEN') return { clientId: [texts.errors.clientIdTaken] };
  if (error.code === 'REGION_NOT_FOUND') {
    return { requiredRegionIds: [texts.errors.unknownRegion] };
  }
  return null;
}
