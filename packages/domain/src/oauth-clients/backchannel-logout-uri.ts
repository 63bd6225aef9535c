import { BlockList, isIP } from 'node:net';
import { AccountError } from '../accounts/account-errors.ts';
import { sharedUriProblems, uriTextProblemCode } from './uri-text.ts';

const MAX_BACKCHANNEL_LOGOUT_URI_LENGTH = 2000;

/** Why a back-channel logout URI cannot be registered, as a stable code a page can word. */
export type BackchannelLogoutUriProblemCode =
  | 'LENGTH'
  | 'WHITE_SPACE'
  | 'FRAGMENT'
  | 'NOT_ABSOLUTE'
  | 'CREDENTIALS'
  | 'NOT_HTTPS'
  | 'PRIVATE_ADDRESS'
  | 'INTERNAL_HOST';

const BACKCHANNEL_LOGOUT_URI_PROBLEMS: Record<BackchannelLogoutUriProblemCode, string> = {
  ...sharedUriProblems(MAX_BACKCHANNEL_LOGOUT_URI_LENGTH),
  NOT_ABSOLUTE: 'must be an absolute URL',
  NOT_HTTPS: 'must use https',
  PRIVATE_ADDRESS: 'must not name a loopback, private, link-local or other non-public address',
  INTERNAL_HOST:
    'must name a public host (not localhost, a name without a dot, or an internal name)',
};

// IPv4 ranges that are not the public internet (RFC 6890 and its successors): this network,
// private, carrier-grade NAT, loopback, link-local (cloud metadata), protocol assignments,
// documentation, benchmarking, multicast, reserved and broadcast.
const BLOCKED_IPV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

// IPv6 is refused outside global unicast (2000::/3): that leaves out the unspecified and
// loopback addresses, IPv4-mapped and NAT64 forms of any IPv4 address, unique-local, link-local,
// site-local and multicast. Inside it, the special-purpose blocks: protocol assignments (Teredo
// among them), documentation, and 6to4, which embeds an IPv4 address of any kind.
const BLOCKED_IPV6_IN_GLOBAL: [string, number][] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

const blockedIpv4 = new BlockList();
for (const [network, prefix] of BLOCKED_IPV4) blockedIpv4.addSubnet(network, prefix, 'ipv4');
const globalIpv6 = new BlockList();
globalIpv6.addSubnet('2000::', 3, 'ipv6');
const blockedIpv6 = new BlockList();
for (const [network, prefix] of BLOCKED_IPV6_IN_GLOBAL) {
  blockedIpv6.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether an IP address (as dns.lookup or a URL's hostname gives it, brackets allowed) is one
 * the server must not send requests to: anything but a public unicast address. Not an IP
 * address at all counts as blocked, so that a caller's mistake never opens the way.
 */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return blockedIpv4.check(bare, 'ipv4');
  if (family === 6) return !globalIpv6.check(bare, 'ipv6') || blockedIpv6.check(bare, 'ipv6');
  return true;
}

// Names that resolve only inside a machine or a network, never on the public internet:
// RFC 6761/6762 (localhost, local), RFC 8375 (home.arpa), ICANN's internal, customary
// private suffixes, and Kubernetes service names (`<service>.<namespace>.svc`).
const INTERNAL_SUFFIXES = [
  'localhost',
  'localdomain',
  'local',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'home.arpa',
  'svc',
  'cluster.local',
];

function isInternalName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  if (!name.includes('.')) return true;
  return INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/**
 * A host as a URL's hostname writes it (lower case, IPv4 in dotted decimal whatever notation it
 * was given in, IPv6 in brackets), or null when `host` is not one. The operator's list of
 * exempted hosts is compared in this form, so `127.1` there means 127.0.0.1.
 */
export function normaliseHost(host: string): string | null {
  const trimmed = host.trim();
  if (trimmed === '' || /[/?#@\s]/.test(trimmed)) return null;
  try {
    const url = new URL(`https://${trimmed}`);
    return url.port === '' ? url.hostname : null;
  } catch {
    return null;
  }
}

/**
 * Why a back-channel logout URI cannot be registered, or null when it can. Unlike a redirect
 * URI, which the user's browser follows, the server itself POSTs to it: a URI pointing inside
 * the server's network would let a client's administrator reach services nobody outside
 * should (server-side request forgery). So it must be https to a public host: no IP address of
 * a private, loopback, link-local or other non-public range in any notation (the URL parser
 * turns `127.1`, `0x7f000001` and `2130706433` into 127.0.0.1), no name that only resolves
 * inside a network. `allowedHosts` (normalised by `normaliseHost`) are exempt from the host
 * rules and may use http: a local receiver in development and tests. The delivery checks the
 * addresses a name resolves to as well (docs/oauth.md §9.4).
 */
export function backchannelLogoutUriProblemCode(
  uri: string,
  allowedHosts: readonly string[] = [],
): BackchannelLogoutUriProblemCode | null {
  const text = uriTextProblemCode(uri, MAX_BACKCHANNEL_LOGOUT_URI_LENGTH);
  if (text !== null) return text;
  // Back-Channel Logout 1.0 §2.2: the URI must not include a fragment.
  if (uri.includes('#')) return 'FRAGMENT';
  if (!URL.canParse(uri)) return 'NOT_ABSOLUTE';
  const url = new URL(uri);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'NOT_HTTPS';
  if (url.hostname === '') return 'NOT_ABSOLUTE';
  if (url.username !== '' || url.password !== '') return 'CREDENTIALS';
  if (allowedHosts.includes(url.hostname)) return null;
  if (url.protocol !== 'https:') return 'NOT_HTTPS';
  const bare = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) return isNonPublicAddress(bare) ? 'PRIVATE_ADDRESS' : null;
  return isInternalName(url.hostname) ? 'INTERNAL_HOST' : null;
}

/** Why a back-channel logout URI cannot be registered, in English, or null when it can. */
export function backchannelLogoutUriProblem(
  uri: string,
  allowedHosts: readonly string[] = [],
): string | null {
  const code = backchannelLogoutUriProblemCode(uri, allowedHosts);
  return code === null ? null : BACKCHANNEL_LOGOUT_URI_PROBLEMS[code];
}

export function assertBackchannelLogoutUri(
  uri: string,
  allowedHosts: readonly string[] = [],
): void {
  const problem = backchannelLogoutUriProblem(uri, allowedHosts);
  if (problem !== null) {
    throw new AccountError(
      'INVALID_REDIRECT_URI',
      `Invalid back-channel logout URI ${uri}: ${problem}`,
    );
  }
}

/**
 * BACKCHANNEL_LOGOUT_ALLOWED_HOSTS, as the services and the command line read it: hosts
 * separated by commas, each normalised. Throws on an entry that is not a host, naming it.
 */
export function parseBackchannelLogoutAllowedHosts(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    const host = normaliseHost(entry);
    if (host === null) {
      throw new AccountError(
        'INVALID_INPUT',
        `BACKCHANNEL_LOGOUT_ALLOWED_HOSTS: ${entry} is not a host name or IP address`,
      );
    }
    return host;
  });
}
