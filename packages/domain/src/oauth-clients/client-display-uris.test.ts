import { describe, expect, it } from 'vitest';
import { AccountError } from '../accounts/account-errors.ts';
import { clientDisplayUriProblemCode } from './client-display-uris.ts';
import { validateOAuthClientInput } from './oauth-clients.service.ts';

const settings = {
  clientId: 'display-app',
  name: 'Display App',
  confidential: false,
  redirectUris: ['https://app.example.org/cb'],
  scopes: ['openid'],
  grantTypes: ['authorization_code'],
};

/** What registering the client with `extra` does: null, or the refusal's message. */
function register(extra: Record<string, string>): string | null {
  try {
    validateOAuthClientInput({ ...settings, ...extra });
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AccountError);
    expect((error as AccountError).code).toBe('INVALID_INPUT');
    return (error as AccountError).message;
  }
}

describe("a client's logo, home page, privacy policy and terms: https links only", () => {
  it('keeps https URIs as given, and none when not named', () => {
    const uris = {
      logoUri: 'https://app.example.org/logo.png',
      clientUri: 'https://app.example.org/',
      policyUri: 'https://app.example.org/privacy#data',
      tosUri: 'https://app.example.org/terms?lang=de',
    };
    expect(validateOAuthClientInput({ ...settings, ...uris })).toMatchObject(uris);
    expect(validateOAuthClientInput(settings)).toMatchObject({
      logoUri: null,
      clientUri: null,
      policyUri: null,
      tosUri: null,
    });
  });

  it.each([
    ['javascript:alert(1)', 'NOT_HTTPS'],
    ['JavaScript:alert(document.cookie)', 'NOT_HTTPS'],
    ['data:text/html,<b>x</b>', 'MARKUP'],
    ['data:image/png;base64,AAAA', 'NOT_HTTPS'],
    ['http://app.example.org/privacy', 'NOT_HTTPS'],
    ['https://app.example.org/x"><script>alert(1)</script>', 'MARKUP'],
    ["https://app.example.org/x' onerror='alert(1)", 'WHITE_SPACE'],
    ["https://app.example.org/x'onerror='alert(1)", 'MARKUP'],
    ['https://app.example.org/`x`', 'MARKUP'],
    ['https://user:pw@app.example.org/', 'CREDENTIALS'],
    ['/privacy', 'NOT_ABSOLUTE'],
    ['', 'LENGTH'],
    [`https://app.example.org/${'a'.repeat(2000)}`, 'LENGTH'],
    ['https://app.example.org/\npolicy', 'WHITE_SPACE'],
  ])('refuses %s (%s)', (uri, code) => {
    expect(clientDisplayUriProblemCode(uri)).toBe(code);
    for (const field of ['logoUri', 'clientUri', 'policyUri', 'tosUri']) {
      expect(register({ [field]: uri })).toMatch(/^Invalid (logo|home page|privacy policy|terms)/);
    }
  });

  it('refuses a client name with markup, and keeps one with other punctuation', () => {
    expect(register({ name: '<script>alert(1)</script>' })).toBe(
      'The client name must not contain < or >',
    );
    expect(register({ name: 'Tafel <b>' })).toBe('The client name must not contain < or >');
    expect(register({ name: 'Obst & Gemüse "Süd"' })).toBeNull();
  });
});
