import type { SignedInClient } from '@foodshare/server-kit/test-support';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ApiApp } from '../app.ts';

/** Everything of an inject() call but the method and the path, which the client's verbs name. */
export type RequestOptions = Omit<InjectOptions, 'method' | 'url' | 'path'>;

/**
 * A caller of the api through `app.inject()`: a signed-in browser (session cookie, CSRF cookie
 * and the token echoed in `x-csrf-token`, docs/design.md §2.3) or an anonymous one. Bodies
 * given as objects go out as JSON.
 */
export interface ApiClient {
  /** The signed-in user; null for the anonymous client. */
  readonly userId: number | null;
  readonly cookies: Record<string, string>;
  /** The CSRF header, sent with every request; empty when anonymous or `withoutCsrf()`. */
  readonly headers: Record<string, string>;
  request(
    method: InjectOptions['method'],
    url: string,
    options?: RequestOptions,
  ): Promise<LightMyRequestResponse>;
  get(url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
  delete(url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  /** The same session with the CSRF header left out, as a forged cross-site request has it. */
  withoutCsrf(): ApiClient;
}

/** A signed-in client: also what the shared helpers taking a `SignedInClient` expect. */
export type UserClient = ApiClient & SignedInClient;

function clientOf(
  app: ApiApp,
  userId: number | null,
  cookies: Record<string, string>,
  headers: Record<string, string>,
): ApiClient {
  const request: ApiClient['request'] = (method, url, options = {}) => {
    const { cookies: moreCookies, headers: moreHeaders, ...rest } = options;
    const jar = { ...cookies, ...moreCookies };
    return app.inject({
      ...rest,
      method,
      url,
      // No jar at all when anonymous: an empty one would still send an empty cookie header.
      ...(Object.keys(jar).length > 0 ? { cookies: jar } : {}),
      headers: { ...headers, ...moreHeaders },
    });
  };
  const withBody =
    (method: 'POST' | 'PATCH') => (url: string, payload?: unknown, options?: RequestOptions) =>
      request(method, url, {
        ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
        ...options,
      });
  return {
    userId,
    cookies,
    headers,
    request,
    get: (url, options) => request('GET', url, options),
    post: withBody('POST'),
    patch: withBody('PATCH'),
    delete: (url, options) => request('DELETE', url, options),
    withoutCsrf: () => clientOf(app, userId, cookies, {}),
  };
}

export function anonymousClient(app: ApiApp): ApiClient {
  return clientOf(app, null, {}, {});
}

export function userClient(app: ApiApp, session: SignedInClient): UserClient {
  return {
    ...clientOf(app, session.userId, session.cookies, session.headers),
    userId: session.userId,
    headers: session.headers,
  };
}
