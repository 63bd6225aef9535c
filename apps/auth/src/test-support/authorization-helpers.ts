import { hash, randomBytes } from 'node:crypto';
import { DEMO_REDIRECT_URI, DemoClientId } from '@foodshare/domain';
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';

/** A fresh RFC 7636 verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: hash('sha256', verifier, 'base64url') };
}

/**
 * Parameters of a valid authorization request of demo-public; `overrides` replace or (with
 * null) drop single parameters.
 */
export function authorizationParams(
  overrides: Record<string, string | null> = {},
): Record<string, string> {
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: DemoClientId.public,
    redirect_uri: DEMO_REDIRECT_URI,
    scope: 'openid profile',
    state: 'state-123',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}

export function authorizeUrl(overrides: Record<string, string | null> = {}): string {
  return `/oauth/authorize?${new URLSearchParams(authorizationParams(overrides)).toString()}`;
}

/** The query of a redirect to the demo clients' callback; fails when it goes elsewhere. */
export function callbackParams(response: LightMyRequestResponse): URLSearchParams {
  const location = response.headers.location;
  if (typeof location !== 'string' || !location.startsWith(`${DEMO_REDIRECT_URI}?`)) {
    throw new Error(`not a redirect to the callback: ${response.statusCode} ${String(location)}`);
  }
  return new URL(location).searchParams;
}

/** A hidden form field's value in a page. */
export function hiddenField(page: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(page);
  if (!match?.[1]) throw new Error(`no hidden field ${name} in the page`);
  return match[1];
}

/** The `request` id of a redirect to the login or consent page. */
export function pendingRequestId(response: LightMyRequestResponse): string {
  const location = String(response.headers.location);
  const id = new URL(location, 'http://x').searchParams.get('request');
  if (!id) throw new Error(`no pending request in ${response.statusCode} ${location}`);
  return id;
}

export function formBody(fields: Record<string, string>): {
  headers: Record<string, string>;
  payload: string;
} {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  };
}

/** Cookies a response set, as a map to pass to the next inject() (deleted ones dropped). */
export function setCookies(response: LightMyRequestResponse): Record<string, string> {
  const cookies = response.cookies as { name: string; value: string }[];
  return Object.fromEntries(
    cookies.filter((cookie) => cookie.value !== '').map((cookie) => [cookie.name, cookie.value]),
  );
}

/**
 * Takes a signed-in user from the consent redirect of an authorization request to the code:
 * opens the consent page and allows (optionally remembering).
 */
export async function allowOnConsentPage(
  app: FastifyInstance,
  cookies: Record<string, string>,
  consentRedirect: LightMyRequestResponse,
  options: { remember?: boolean; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const page = await app.inject({
    method: 'GET',
    url: String(consentRedirect.headers.location),
    cookies,
    ...(options.headers ? { headers: options.headers } : {}),
  });
  if (page.statusCode !== 200) throw new Error(`consent page answered ${page.statusCode}`);
  const form = formBody({
    request: hiddenField(page.body, 'request'),
    csrf: hiddenField(page.body, 'csrf'),
    decision: 'allow',
    ...(options.remember ? { remember: 'on' } : {}),
  });
  return app.inject({ method: 'POST', url: '/oauth/consent', cookies, ...form });
}
