import { describe, expect, it } from 'vitest';
import { isRegisteredRedirectUri, redirectUriMatches } from './redirect-uri-match.ts';

describe('redirectUriMatches', () => {
  it.each([
    // RFC 8252 7.3: any port on a loopback host, the rest exactly as registered.
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:1/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:65535/callback'],
    ['http://[::1]/callback', 'http://[::1]:54123/callback'],
    ['http://localhost/callback', 'http://localhost:54123/callback'],
    ['http://127.0.0.1/callback?app=cli', 'http://127.0.0.1:8765/callback?app=cli'],
    ['http://127.0.0.1', 'http://127.0.0.1:8765'],
    // A port written at registration is no promise: the app gets its port at run time.
    ['http://127.0.0.1:8080/callback', 'http://127.0.0.1:54123/callback'],
    ['http://localhost:9999/callback', 'http://localhost/callback'],
    // Exact strings match, whatever they are.
    ['https://app.example/callback', 'https://app.example/callback'],
    ['https://wp.example/a.php?action=x', 'https://wp.example/a.php?action=x'],
    ['org.example.app:/oauth2redirect', 'org.example.app:/oauth2redirect'],
  ])('%s accepts %s', (registered, sent) => {
    expect(redirectUriMatches(registered, sent)).toBe(true);
  });

  it.each([
    // Path, query and scheme still match exactly on loopback.
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123/callback/'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123/Callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123/other'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123/x/../callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123/callback?x=1'],
    ['http://127.0.0.1/callback?app=cli', 'http://127.0.0.1:54123/callback?app=web'],
    ['http://127.0.0.1/callback?app=cli', 'http://127.0.0.1:54123/callback'],
    ['http://127.0.0.1/callback', 'https://127.0.0.1:54123/callback'],
    ['http://127.0.0.1/callback', 'HTTP://127.0.0.1:54123/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123/callback#x'],
    // The host is not a port: the loopback names are not interchangeable.
    ['http://127.0.0.1/callback', 'http://localhost:54123/callback'],
    ['http://127.0.0.1/callback', 'http://[::1]:54123/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.2:54123/callback'],
    ['http://127.0.0.1/callback', 'http://127.1:54123/callback'],
    ['http://localhost/callback', 'http://LOCALHOST:54123/callback'],
    // A host that only starts like a loopback one, and a userinfo in front of it.
    ['http://127.0.0.1/callback', 'http://127.0.0.1.evil.com:54123/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1.evil.com/callback'],
    ['http://localhost/callback', 'http://localhost.evil.com/callback'],
    ['http://127.0.0.1/callback', 'http://user@127.0.0.1:54123/callback'],
    ['http://127.0.0.1/callback', 'http://evil.com@127.0.0.1:54123/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123@evil.com/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54123\\@evil.com/callback'],
    // Ports that are none.
    ['http://127.0.0.1/callback', 'http://127.0.0.1:65536/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:0/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:080/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:/callback'],
    ['http://127.0.0.1/callback', 'http://127.0.0.1:port/callback'],
    // Anywhere else, a different port is a different endpoint.
    ['https://app.example/callback', 'https://app.example:8443/callback'],
    ['http://app.example/callback', 'http://app.example:8080/callback'],
    ['https://127.0.0.1/callback', 'https://127.0.0.1:8443/callback'],
    ['https://app.example/callback', 'https://app.example/callback/'],
    ['https://wp.example/a.php?action=x', 'https://wp.example/a.php?action=y'],
    ['org.example.app:/oauth2redirect', 'org.example.app:/oauth2redirect/'],
  ])('%s refuses %s', (registered, sent) => {
    expect(redirectUriMatches(registered, sent)).toBe(false);
  });
});

describe('isRegisteredRedirectUri', () => {
  it('matches any of the registered URIs, and none of an empty list', () => {
    const registered = ['https://app.example/callback', 'http://[::1]/cb'];
    expect(isRegisteredRedirectUri(registered, 'https://app.example/callback')).toBe(true);
    expect(isRegisteredRedirectUri(registered, 'http://[::1]:40000/cb')).toBe(true);
    expect(isRegisteredRedirectUri(registered, 'http://[::1]:40000/callback')).toBe(false);
    expect(isRegisteredRedirectUri([], 'https://app.example/callback')).toBe(false);
  });
});
