import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DemoUserEmail } from '@foodshare/domain';
import express from 'express';
import session from 'express-session';
import * as client from 'openid-client';
import { Strategy, type VerifyFunction } from 'openid-client/passport';
import passport from 'passport';
import { describe, expect, ids, test as base } from '../test-support/fixtures.ts';
import {
  FormBrowser,
  redirectTarget,
  showsLoginPage,
  signInOnOurPages,
} from './relying-party-harness.ts';

/**
 * An Express web app signing its users in with passport and openid-client 6's own passport
 * strategy (PKCE, ID token checked by the library), as a web team would wire it from the
 * library's documentation: the user's claims land in `req.user`, and logging out of the app
 * sends the user to our end_session endpoint, which ends the session with us too.
 */

const CLIENT_ID = 'express-passport-rp';
const SECRET = `passport-secret-${randomBytes(8).toString('hex')}`;

interface SignedInUser {
  claims: client.IDToken;
  userinfo: client.UserInfoResponse;
  idToken: string;
}

/** The relying party: an Express app on a loopback port, configured from our discovery. */
async function startExpressApp(issuer: string) {
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const config = await client.discovery(new URL(issuer), CLIENT_ID, SECRET, undefined, {
    execute: [client.allowInsecureRequests],
  });
  const verify: VerifyFunction = (tokens, verified) => {
    const claims = tokens.claims()!;
    client.fetchUserInfo(config, tokens.access_token, claims.sub).then(
      (userinfo) => {
        verified(null, { claims, userinfo, idToken: tokens.id_token! });
      },
      (error: unknown) => {
        verified(error);
      },
    );
  };
  passport.use(
    'foodshare',
    new Strategy(
      { config, scope: 'openid profile email', callbackURL: `${origin}/auth/callback` },
      verify,
    ),
  );
  passport.serializeUser((user, done) => {
    done(null, user);
  });
  passport.deserializeUser((user: Express.User, done) => {
    done(null, user);
  });

  app.use(
    session({
      secret: randomBytes(16).toString('hex'),
      resave: false,
      saveUninitialized: false,
    }),
  );
  app.use(passport.session());
  app.get('/login', passport.authenticate('foodshare'));
  app.get(
    '/auth/callback',
    passport.authenticate('foodshare', { successRedirect: '/me', failureRedirect: '/failed' }),
  );
  app.get('/me', (req, res) => {
    if (!req.user) res.status(401).send('not signed in');
    else res.json(req.user);
  });
  app.get('/logout', (req, res, next) => {
    const user = req.user as SignedInUser | undefined;
    req.logout((error) => {
      if (error) return next(error);
      if (!user) return res.redirect('/');
      res.redirect(
        client.buildEndSessionUrl(config, {
          id_token_hint: user.idToken,
          post_logout_redirect_uri: `${origin}/signed-out`,
        }).href,
      );
    });
  });
  app.get('/signed-out', (_req, res) => {
    res.send('signed out');
  });

  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The Express app on a socket of its own, registered as a client of the listening server. */
const test = base.extend(
  'rp',
  { scope: 'file' },
  async ({ origin, registerClient }, { onCleanup }) => {
    const rp = await startExpressApp(origin);
    onCleanup(() => rp.close());
    // The app's own port is known once it listens; the client is registered with it.
    await registerClient(
      {
        clientId: CLIENT_ID,
        redirectUris: [`${rp.origin}/auth/callback`],
        postLogoutRedirectUris: [`${rp.origin}/signed-out`],
      },
      SECRET,
    );
    return rp;
  },
);
const it = test;

test.override('listen', { scope: 'file' }, true);

describe('Express + passport with openid-client 6 as a relying party', () => {
  it('signs the user in with their claims in req.user, and logs out of our server too', async ({
    origin: issuer,
    rp,
  }) => {
    const app = new FormBrowser(rp.origin);
    const ours = new FormBrowser(issuer);

    // The app sends the browser to our authorization endpoint, with PKCE.
    const authorize = await redirectTarget(await app.request('/login'), rp.origin);
    expect(authorize.origin + authorize.pathname).toBe(`${issuer}/oauth/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

    const callback = await signInOnOurPages(ours, authorize, DemoUserEmail.alice);
    expect(callback.origin + callback.pathname).toBe(`${rp.origin}/auth/callback`);
    expect(ours.pagesShown).toEqual(['login', 'consent']);

    // The strategy redeems the code and checks the ID token; failure would land on /failed.
    const landed = await redirectTarget(await app.request(callback.href), rp.origin);
    expect(landed.pathname).toBe('/me');
    const me = await app.request('/me');
    expect(me.status).toBe(200);
    const user = (await me.json()) as SignedInUser;
    const subject = String(ids.users.alice);
    expect(user.claims).toMatchObject({ iss: issuer, aud: CLIENT_ID, sub: subject });
    expect(user.userinfo).toMatchObject({ sub: subject, email: DemoUserEmail.alice });

    // Logging out of the app goes on to our end_session endpoint, which comes back to the app.
    const endSession = await redirectTarget(await app.request('/logout'), rp.origin);
    expect(endSession.origin + endSession.pathname).toBe(`${issuer}/oauth/logout`);
    expect(endSession.searchParams.get('id_token_hint')).toBe(user.idToken);
    const back = await redirectTarget(await ours.request(endSession.href), issuer);
    expect(back.href).toBe(`${rp.origin}/signed-out`);

    // Signed out of both: the app has no user, and our server asks for the password again.
    expect((await app.request('/me')).status).toBe(401);
    const again = await redirectTarget(await app.request('/login'), rp.origin);
    expect(await showsLoginPage(ours, again)).toBe(true);
  });
});
