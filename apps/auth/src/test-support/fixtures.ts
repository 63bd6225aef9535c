import {
  addMembership,
  createUser,
  type DemoUserName,
  type MikroORM,
  type Role,
} from '@foodshare/domain';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import { inject, test as base } from 'vitest';
import type { ApiApp } from '@foodshare/api/app';
import type { Browser } from 'playwright-core';
import type { AuthApp } from '../app.ts';
import type { AuthServices } from '../auth-services.ts';
import { startCallbackServer, type CallbackServer } from './callback-server.ts';
import { buildTestApp, servicesOf, type TestApp, type TestAppShared } from './build-test-app.ts';
import { listenTestApp } from './listening-test-app.ts';
import { signInNewUser } from './oauth-admin-helpers.ts';
import { openRevocationDatabase } from './revocation-database.ts';
import { registerTestClient } from './token-helpers.ts';

/** Ids of the demo rows every test database starts with. */
export const ids = inject('demoIds');

/** SQL with `?` placeholders, each call on a fresh EntityManager fork, outside any request. */
export type Sql = <T = Record<string, unknown>[]>(query: string, params?: unknown[]) => Promise<T>;

/** What a new user of one test is made with; each gets an address of its own. */
export interface NewUserOptions {
  firstName?: string;
  lastName?: string;
  password?: string;
  role?: Role;
  verified?: boolean;
  /** The regions or working groups the user joins. */
  memberOf?: readonly number[];
}

let usersMade = 0;

/**
 * The auth test: `it('…', async ({ app, signIn, registerClient }) => …)`, as in apps/api. Every
 * fixture lives as long as the test file (one app, one database copy and one Redis prefix per
 * file, docs/design.md §6.2), so `test.beforeAll` may use them too. A file that needs other
 * settings says `test.override('appEnv', { scope: 'file' }, { … })` first; one that needs a real
 * socket (cookies, redirects, a relying-party library, a browser) says
 * `test.override('listen', { scope: 'file' }, true)` and reads `origin`.
 */
export const test = base
  .extend('appEnv', { scope: 'file' }, {} as Record<string, string>)
  /** A log stream or a key-value store of the test's own in place of the app's. */
  .extend('appShared', { scope: 'file' }, {} as TestAppShared)
  .extend('listen', { scope: 'file' }, false as boolean)
  /** The app on this file's own database and Redis prefix, with both described. */
  .extend(
    'testApp',
    { scope: 'file' },
    async (
      { appEnv, appShared, listen },
      { onCleanup },
    ): Promise<TestApp & { origin?: string }> => {
      const built = listen ? await listenTestApp(appEnv) : await buildTestApp(appEnv, appShared);
      onCleanup(() => built.app.close());
      return built;
    },
  )
  /** The app, ready: its ORM and session store are there to use before the first request. */
  .extend('app', { scope: 'file' }, async ({ testApp }): Promise<AuthApp> => {
    await testApp.app.ready();
    return testApp.app;
  })
  /** The origin the listening app serves and names as its issuer. */
  .extend('origin', { scope: 'file' }, ({ testApp }): string => {
    if (testApp.origin === undefined) throw new Error("origin: say test.override('listen', …)");
    return testApp.origin;
  })
  /** The stores, keys and configuration the app was built with. */
  .extend('services', { scope: 'file' }, ({ app }): AuthServices => servicesOf(app))
  /** SQL through the app's own ORM: a test opens no second pool of its own. */
  .extend(
    'sql',
    { scope: 'file' },
    ({ app }): Sql =>
      async <T>(query: string, params: unknown[] = []) =>
        (await app.orm.em.fork().execute(query, params)) as T,
  )
  /** A user of this test alone, so changes to it touch nobody else's tokens; answers its id. */
  .extend(
    'newUser',
    { scope: 'file' },
    ({ app }) =>
      async (options: NewUserOptions = {}): Promise<number> => {
        usersMade += 1;
        const { memberOf = [], ...fields } = options;
        const em = app.orm.em.fork();
        const user = await createUser(em, {
          firstName: 'Test',
          lastName: 'Person',
          email: `auth-test-${process.pid}-${usersMade}@example.org`,
          password: 'a-long-enough-password',
          ...fields,
        });
        for (const regionId of memberOf) await addMembership(em, user.id, regionId);
        return user.id;
      },
  )
  /** Registers a client of the test's own (`registerTestClient`). */
  .extend(
    'registerClient',
    { scope: 'file' },
    ({ app }) =>
      (
        ...args: Parameters<typeof registerTestClient> extends [AuthApp, ...infer Rest]
          ? Rest
          : never
      ) =>
        registerTestClient(app, ...args),
  )
  /** Signs in as a demo user (by name) or any user (by id), with a session of its own. */
  .extend(
    'signIn',
    { scope: 'file' },
    ({ app }) =>
      (user: DemoUserName | number): Promise<SignedInClient> =>
        signInAs(app, typeof user === 'number' ? user : ids.users[user]),
  )
  /** Signs in a new user of the given role, optionally a member of some units. */
  .extend(
    'signInNewUser',
    { scope: 'file' },
    ({ app }) =>
      (role: Role, memberOf: readonly number[] = []): Promise<SignedInClient> =>
        signInNewUser(app, role, memberOf),
  )
  /**
   * The REST service beside the app, on the same database and Redis prefix (one session store):
   * a session ended at one is gone at the other. Imported here alone, so other files skip it.
   */
  .extend('restApi', { scope: 'file' }, async ({ testApp }, { onCleanup }): Promise<ApiApp> => {
    const [{ buildApp }, { loadConfig }] = await Promise.all([
      import('@foodshare/api/app'),
      import('@foodshare/api/config'),
    ]);
    const api = await buildApp(loadConfig(testApp.env));
    onCleanup(() => api.close());
    await api.ready();
    return api;
  })
  /** Headless Chromium (docs/design.md §8.5); imported here alone, so other files skip it. */
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's needs from this pattern
  .extend('browser', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browser> => {
    const { launchChromium } = await import('@foodshare/testing/browser');
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    return browser;
  })
  /** A relying party's redirect URI on a real socket, for a browser to land on. */
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's needs from this pattern
  .extend('callback', { scope: 'file' }, async ({}, { onCleanup }): Promise<CallbackServer> => {
    const callback = await startCallbackServer();
    onCleanup(() => new Promise<void>((resolve) => callback.server.close(() => resolve())));
    return callback;
  })
  /**
   * For store tests without an app: an ORM on this worker's own database, where the
   * revocation ledger keeps its rows (`testLedger`).
   */
  .extend(
    'revocationOrm',
    { scope: 'file' },
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's needs from this pattern
    async ({}, { onCleanup }): Promise<MikroORM> => {
      const orm = await openRevocationDatabase();
      onCleanup(() => orm.close());
      return orm;
    },
  );

export const it = test;
export { describe, expect } from 'vitest';
