import { describe, expect, it } from 'vitest';
import { AccountError } from '../accounts/account-errors.ts';
import {
  backchannelLogoutUriProblemCode,
  isNonPublicAddress,
  parseBackchannelLogoutAllowedHosts,
} from './backchannel-logout-uri.ts';
import { validateOAuthClientInput } from './oauth-clients.service.ts';

const settings = {
  clientId: 'ssrf-app',
  name: 'SSRF',
  confidential: true,
  redirectUris: ['https://app.example.org/cb'],
  scopes: ['openid'],
  grantTypes: ['authorization_code'],
};

/** What registering `uri` as a client's back-channel logout URI does: null, or the refusal. */
function register(uri: string, allowedHosts?: string[]): string | null {
  try {
    validateOAuthClientInput(
      { ...settings, backchannelLogoutUri: uri },
      { backchannelLogoutAllowedHosts: allowedHosts },
    );
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AccountError);
    return (error as AccountError).message;
  }
}

describe('back-channel logout URIs: the server POSTs there, so only public hosts', () => {
  // The review's list (issue 31, finding 1): each was accepted and received a logout token.
  it.each([
    'http://127.0.0.1:6379/',
    'http://127.0.0.1:9999/any/path',
    'http://[::1]:8080/bcl',
    'http://localhost:5432/',
    'http://127.1/',
    'http://0x7f000001/',
    'http://2130706433/',
    'https://127.0.0.1/bcl',
    'https://127.1/bcl',
    'https://0x7f000001/bcl',
    'https://2130706433/bcl',
    'https://0177.0.0.1/bcl',
    'https://10.0.0.5/bcl',
    'https://10.1/bcl',
    'https://172.16.3.4/bcl',
    'https://192.168.1.1/bcl',
    'https://100.64.0.1/bcl',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/bcl',
    'https://224.0.0.1/bcl',
    'https://255.255.255.255/bcl',
    'https://[::1]/bcl',
    'https://[::]/bcl',
    'https://[fd00::1]/bcl',
    'https://[fe80::1]/bcl',
    'https://[ff02::1]/bcl',
    'https://[::ffff:127.0.0.1]/bcl',
    'https://[::ffff:a9fe:a9fe]/bcl',
    'https://[64:ff9b::a00:1]/bcl',
    'https://[2002:7f00:1::]/bcl',
    'https://localhost/bcl',
    'https://localhost./bcl',
    'https://app.localhost/bcl',
    'https://kubernetes.default.svc/bcl',
    'https://kubernetes.default.svc.cluster.local/bcl',
    'https://redis/bcl',
    'https://printer.local/bcl',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://router.home.arpa/bcl',
  ])('refuses %s', (uri) => {
    expect(register(uri)).toMatch(/^Invalid back-channel logout URI /);
  });

  it.each([
    'https://app.example.org/backchannel-logout',
    'https://app.example.org:8443/bcl?tenant=1',
    'https://93.184.215.14/bcl',
    'https://[2606:4700::1111]/bcl',
  ])('accepts %s', (uri) => {
    expect(register(uri)).toBeNull();
  });

  it('names why, with a stable code', () => {
    expect(backchannelLogoutUriProblemCode('http://app.example.org/bcl')).toBe('NOT_HTTPS');
    expect(backchannelLogoutUriProblemCode('https://10.0.0.1/bcl')).toBe('PRIVATE_ADDRESS');
    expect(backchannelLogoutUriProblemCode('https://intranet/bcl')).toBe('INTERNAL_HOST');
    expect(backchannelLogoutUriProblemCode('https://app.example.org/bcl#x')).toBe('FRAGMENT');
    expect(backchannelLogoutUriProblemCode('https://u:p@app.example.org/bcl')).toBe('CREDENTIALS');
    expect(backchannelLogoutUriProblemCode('ftp://app.example.org/bcl')).toBe('NOT_HTTPS');
  });

  it('lets the operator exempt named hosts (a local receiver), in any notation, http too', () => {
    const allowed = parseBackchannelLogoutAllowedHosts(' 127.1 , LocalHost,[::1]');
    expect(allowed).toEqual(['127.0.0.1', 'localhost', '[::1]']);
    expect(register('http://127.0.0.1:6379/', allowed)).toBeNull();
    expect(register('http://0x7f000001:4000/bcl', allowed)).toBeNull();
    expect(register('http://localhost:4000/bcl', allowed)).toBeNull();
    expect(register('http://[::1]:4000/bcl', allowed)).toBeNull();
    // Only those hosts.
    expect(register('http://127.0.0.2/bcl', allowed)).not.toBeNull();
    expect(register('https://10.0.0.1/bcl', allowed)).not.toBeNull();
    expect(() => parseBackchannelLogoutAllowedHosts('127.0.0.1:80')).toThrow(/127\.0\.0\.1:80/);
    expect(() => parseBackchannelLogoutAllowedHosts('http://x')).toThrow(AccountError);
  });

  it('tells public from non-public addresses as the resolver gives them', () => {
    for (const address of ['127.0.0.1', '10.9.8.7', '::1', '::ffff:10.0.0.1', 'fd12::3', 'x']) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '[2a00:1450::1]']) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });
});
