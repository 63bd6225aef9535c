/**
 * The paths of the pages a person sees, which the endpoints and the other pages link to
 * (docker/Caddyfile routes them to this service).
 */
export const LOGIN_PATH = '/login';
export const CONSENT_PATH = '/oauth/consent';
export const CONNECTED_APPS_PATH = '/connected-apps';
/** RFC 8628 verification_uri: where a device's user code is entered (under /oauth: no new route). */
export const DEVICE_PATH = '/oauth/device';

/** The login page's parameter naming the page of this service to show after logging in. */
export const RETURN_TO_PARAM = 'return_to';

export function loginPageUrl(requestId?: string): string {
  return requestId === undefined
    ? LOGIN_PATH
    : `${LOGIN_PATH}?${new URLSearchParams({ request: requestId }).toString()}`;
}

export function consentPageUrl(requestId: string): string {
  return `${CONSENT_PATH}?${new URLSearchParams({ request: requestId }).toString()}`;
}
