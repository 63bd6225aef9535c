import type { SignedInClient } from '@foodshare/server-kit/test-support';
import type { LightMyRequestResponse } from 'fastify';
import type { ApiApp } from '../app.ts';

/**
 * How the platform's own clients encode a body: its API tests send forms built like PHP's
 * `http_build_query` (Codeception's REST module), its web client sends JSON.
 */
export type BodyEncoding = 'json' | 'form';

export const BODY_ENCODINGS: readonly BodyEncoding[] = ['json', 'form'];

type FormValue = string | number | boolean | null | undefined | FormValue[] | FormObject;
interface FormObject {
  [key: string]: FormValue;
}

/**
 * A body encoded as PHP's `http_build_query` does it: `true` → `1`, `false` → `0`, null and
 * undefined left out, arrays and objects as `key[0]=…` / `key[sub]=…`.
 */
export function phpFormEncode(body: FormObject): string {
  const pairs: string[] = [];
  const add = (key: string, value: FormValue): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => add(`${key}[${index}]`, item));
    } else if (typeof value === 'object') {
      for (const [sub, item] of Object.entries(value)) add(`${key}[${sub}]`, item);
    } else {
      const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
      pairs.push(
        `${encodeURIComponent(key.toWellFormed())}=${encodeURIComponent(text.toWellFormed())}`,
      );
    }
  };
  for (const [key, value] of Object.entries(body)) add(key, value);
  return pairs.join('&');
}

export interface PlatformCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  /** Left out: no body at all. */
  body?: FormObject;
  encoding?: BodyEncoding;
  /** Extra headers, e.g. the web client's empty JSON body's content type. */
  headers?: Record<string, string>;
  /** Raw payload instead of an encoded body (the web client's empty JSON body is ''). */
  rawPayload?: string;
}

/**
 * One request as the platform's clients make it: with the caller's session cookie and CSRF
 * header (or anonymously with `null`), the body as JSON or as a PHP-style form.
 */
export function platformRequest(
  app: ApiApp,
  client: SignedInClient | null,
  call: PlatformCall,
): Promise<LightMyRequestResponse> {
  const { method, url, body, encoding = 'json', headers = {}, rawPayload } = call;
  const session = client ? { cookies: client.cookies } : {};
  const csrf = client ? client.headers : {};
  if (rawPayload !== undefined) {
    return app.inject({
      method,
      url,
      payload: rawPayload,
      headers: { ...csrf, ...headers },
      ...session,
    });
  }
  if (body === undefined) {
    return app.inject({ method, url, headers: { ...csrf, ...headers }, ...session });
  }
  const encoded =
    encoding === 'json'
      ? { payload: JSON.stringify(body), type: 'application/json' }
      : { payload: phpFormEncode(body), type: 'application/x-www-form-urlencoded' };
  return app.inject({
    method,
    url,
    payload: encoded.payload,
    headers: { 'content-type': encoded.type, ...csrf, ...headers },
    ...session,
  });
}
