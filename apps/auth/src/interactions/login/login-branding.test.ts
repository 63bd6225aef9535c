import { authorizeUrl } from '../../test-support/authorization-helpers.ts';
import { describe, expect, ids, it, test } from '../../test-support/fixtures.ts';

const PASSWORD_RESET_URL = 'https://food.example.org/passwort?from=login&x=1';

test.override(
  'appEnv',
  { scope: 'file' },
  {
    PLATFORM_NAME: 'Lebensmittel <retten>',
    PASSWORD_RESET_URL,
    BASE_URL: 'https://login.food.example.org',
  },
);

describe('the login page of a platform with its own name and password reset page', () => {
  it('links "forgot your password?" to the configured page, in both languages', async ({ app }) => {
    for (const [language, text] of [
      ['en', 'Forgot your password?'],
      ['de', 'Passwort vergessen?'],
    ] as const) {
      const page = await app.inject({
        method: 'GET',
        url: '/login',
        headers: { 'accept-language': language },
      });
      expect(page.body).toContain(
        `<a id="forgot-password" href="https://food.example.org/passwort?from=login&amp;x=1">${text}</a>`,
      );
    }
  });

  it('names the configured platform, escaped, and the host to type the password at', async ({
    app,
  }) => {
    const page = await app.inject({ method: 'GET', url: '/login' });
    expect(page.body).toContain('<span>Lebensmittel &lt;retten&gt;</span>');
    expect(page.body).not.toContain('<retten>');
    expect(page.body).toContain(
      'Enter your password only at <strong>login.food.example.org</strong>',
    );
  });

  it('names the configured platform where the pages speak of it, not a fixed name', async ({
    app,
    signIn,
  }) => {
    const alice = await signIn(ids.users.alice);
    const logout = await app.inject({
      method: 'GET',
      url: '/oauth/logout',
      cookies: alice.cookies,
    });
    expect(logout.body).toContain('Do you want to sign out of Lebensmittel &lt;retten&gt;?');
    const start = await app.inject({ method: 'GET', url: authorizeUrl(), cookies: alice.cookies });
    const consent = await app.inject({
      method: 'GET',
      url: String(start.headers.location),
      cookies: alice.cookies,
      headers: { 'accept-language': 'de' },
    });
    expect(consent.body).toContain('aus deinem Konto bei Lebensmittel &lt;retten&gt; zugreifen:');
    expect(consent.body).not.toMatch(/foodsharing/i);
  });
});
