import type * as oidc from 'openid-client';
import type { AuthApp } from '../app.ts';

/** One request openid-client sent through `injectFetch`, as the app answered it. */
export interface SeenRequest {
  status: number;
  url: string;
}

/**
 * openid-client's `customFetch` served by `app.inject`, so a test drives the library against the
 * app without a listening socket. `seen`, when given, records each request's path and status.
 */
export function injectFetch(app: AuthApp, seen?: SeenRequest[]): oidc.CustomFetch {
  return async (url, options) => {
    const { pathname, search } = new URL(url);
    // openid-client sends form bodies as URLSearchParams or strings.
    const body = options.body instanceof URLSearchParams ? options.body.toString() : options.body;
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: pathname + search,
      headers: Object.fromEntries(new Headers(options.headers).entries()),
      ...(typeof body === 'string' ? { payload: body } : {}),
    });
    seen?.push({ status: response.statusCode, url: pathname });
    return new Response(response.rawPayload.length > 0 ? response.rawPayload : null, {
      status: response.statusCode,
      headers: response.headers as Record<string, string>,
    });
  };
}
