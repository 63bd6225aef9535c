import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { backchannelLogoutUriProblemCode, isNonPublicAddress } from '@foodshare/domain';

/** A back-channel logout URI the server will not send to: retrying cannot mend it. */
export class RefusedLogoutTarget extends Error {}

/**
 * dns.lookup that fails when any address of the name is not public, and otherwise hands the
 * connection exactly the addresses it checked: no second look-up a name server could answer
 * differently (DNS rebinding). Every address, not the first: the connection may try them all.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const inside = addresses.find((address) => isNonPublicAddress(address.address));
    if (inside !== undefined || addresses.length === 0) {
      callback(new RefusedLogoutTarget(`${hostname} resolves to a non-public address`), '', 0);
      return;
    }
    if (options.all) {
      callback(null, addresses);
      return;
    }
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
};

export interface LogoutPostOptions {
  /** BACKCHANNEL_LOGOUT_ALLOWED_HOSTS, parsed: reached at any address, over http too. */
  allowedHosts: readonly string[];
  /** Ends the attempt, connecting and waiting for the answer included. */
  signal: AbortSignal;
}

/**
 * POSTs a form to a client's back-channel logout URI and returns the answer's status, without
 * following a redirect. The server itself makes this request, so the URI is checked again
 * (a row registered before the rules, or changed in the database) and the host's addresses are
 * checked when connecting (docs/oauth.md §9.4): nothing inside the server's own network is
 * reached unless the operator named the host in BACKCHANNEL_LOGOUT_ALLOWED_HOSTS.
 */
export function postLogoutForm(
  uri: string,
  form: URLSearchParams,
  options: LogoutPostOptions,
): Promise<number> {
  const problem = backchannelLogoutUriProblemCode(uri, options.allowedHosts);
  if (problem !== null) {
    return Promise.reject(new RefusedLogoutTarget(`the URI is refused: ${problem}`));
  }
  const url = new URL(uri);
  const allowed = options.allowedHosts.includes(url.hostname);
  const body = form.toString();
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
        // A connection of its own: a pooled one may have been opened by another rule.
        agent: false,
        ...(allowed ? {} : { lookup: publicOnlyLookup }),
        signal: options.signal,
      },
      (response: IncomingMessage) => {
        // Only the status counts; the body is not read.
        response.destroy();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
