/**
 * The platform's web client as a browser tab runs it, over real HTTP: client/src/api/base.js
 * of the platform (SaiCode-DEV/foodsharing), rewritten here.
 *
 * - Every path is relative to `/api`; the browser sends the tab's cookies with it.
 * - The CSRF token is what `/CSRF_TOKEN=([0-9a-f]+)/` finds in `document.cookie`, which holds
 *   only the cookies a script may read (not HttpOnly ones); when found it goes into
 *   `X-CSRF-Token` on every request, reads included.
 * - `get` sends no body. `post`, `put` and `patch` send `Content-Type: application/json;
 *   charset=utf-8` and `JSON.stringify(body)`, which for a call without a body is no body at
 *   all; `remove` sends the same header with `{}` unless given a body.
 * - The browser adds `Origin` to every request but GET and HEAD.
 */
export interface ClientResponse {
  status: number;
  contentType: string;
  bytes: Buffer;
  /** The body read as JSON (what base.js returns), or undefined if it is not JSON. */
  json: unknown;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class WebClient {
  readonly #origin: string;
  /** The tab's cookies: name → value and whether scripts may read it. */
  readonly #cookies = new Map<string, { value: string; httpOnly: boolean }>();

  constructor(origin: string) {
    this.#origin = origin;
  }

  /** What `document.cookie` shows the client's scripts. */
  get documentCookie(): string {
    return [...this.#cookies]
      .filter(([, cookie]) => !cookie.httpOnly)
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  /** base.js getCsrfToken(). */
  csrfToken(): string | null {
    return /CSRF_TOKEN=([0-9a-f]+)/.exec(this.documentCookie)?.[1] ?? null;
  }

  get(path: string): Promise<ClientResponse> {
    return this.#request('GET', path, undefined);
  }

  post(path: string, body?: unknown): Promise<ClientResponse> {
    return this.#request('POST', path, JSON.stringify(body));
  }

  put(path: string, body?: unknown): Promise<ClientResponse> {
    return this.#request('PUT', path, JSON.stringify(body));
  }

  patch(path: string, body?: unknown): Promise<ClientResponse> {
    return this.#request('PATCH', path, JSON.stringify(body));
  }

  remove(path: string, body: unknown = {}): Promise<ClientResponse> {
    return this.#request('DELETE', path, JSON.stringify(body));
  }

  /** `JSON.stringify(undefined)` is undefined, so `body` is then left out as base.js leaves it. */
  async #request(method: Method, path: string, body: string | undefined): Promise<ClientResponse> {
    const headers: Record<string, string> = {};
    if (method !== 'GET') {
      headers['content-type'] = 'application/json; charset=utf-8';
      headers.origin = this.#origin;
    }
    const csrf = this.csrfToken();
    if (csrf) headers['x-csrf-token'] = csrf;
    if (this.#cookies.size > 0) {
      headers.cookie = [...this.#cookies].map(([name, { value }]) => `${name}=${value}`).join('; ');
    }
    const response = await fetch(`${this.#origin}/api${path}`, { method, headers, body });
    for (const line of response.headers.getSetCookie()) this.#store(line);
    const bytes = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      contentType,
      bytes,
      json: /json/.test(contentType) ? JSON.parse(bytes.toString('utf8')) : undefined,
    };
  }

  /** Keeps a cookie the way a browser does; one that expires at once is deleted. */
  #store(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const lower = attributes.map((attribute) => attribute.toLowerCase());
    const expired =
      lower.some((attribute) => attribute === 'max-age=0') ||
      lower.some(
        (attribute) =>
          attribute.startsWith('expires=') && Date.parse(attribute.slice(8)) <= Date.now(),
      );
    if (expired) this.#cookies.delete(name);
    else this.#cookies.set(name, { value, httpOnly: lower.includes('httponly') });
  }
}
