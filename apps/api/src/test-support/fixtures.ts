import type { DemoUserName } from '@foodshare/domain';
import { signInAs, type SignInOptions } from '@foodshare/server-kit/test-support';
import { inject, test as base } from 'vitest';
import { anonymousClient, userClient, type UserClient } from './api-client.ts';
import { buildTestApp } from './build-test-app.ts';
import { factoriesOf } from './factories.ts';
import { sqlThrough } from './sql.ts';

/** Ids of the demo rows every test database starts with. */
export const ids = inject('demoIds');

/** Signs in as a demo user (by name) or any user (by id), with a session of its own. */
export type SignIn = (user: DemoUserName | number, options?: SignInOptions) => Promise<UserClient>;

/**
 * The api test: `it('…', async ({ as, sql, factory }) => …)`. Every fixture lives as long as
 * the test file (one app, one database copy and one Redis prefix per file, as
 * docs/design.md §6.2 has it), so `test.beforeAll` may use them too. A file that needs other
 * settings of the app says `test.override('appEnv', { scope: 'file' }, { … })` first.
 */
export const test = base
  .extend('appEnv', { scope: 'file' }, {} as Record<string, string>)
  /** The app on this file's own database and Redis prefix, with both described. */
  .extend('testApp', { scope: 'file' }, async ({ appEnv }, { onCleanup }) => {
    const built = await buildTestApp(appEnv);
    onCleanup(() => built.app.close());
    return built;
  })
  .extend('app', { scope: 'file' }, ({ testApp }) => testApp.app)
  /** SQL through the app's own ORM. */
  .extend('sql', { scope: 'file' }, ({ app }) => sqlThrough(app.orm))
  .extend('factory', { scope: 'file' }, ({ sql }) => factoriesOf(sql))
  .extend(
    'as',
    { scope: 'file' },
    ({ app }): SignIn =>
      async (user, options) =>
        userClient(
          app,
          await signInAs(app, typeof user === 'number' ? user : ids.users[user], options),
        ),
  )
  .extend('anonymous', { scope: 'file' }, ({ app }) => anonymousClient(app));

export const it = test;
export { describe, expect } from 'vitest';
export type { ApiClient, UserClient } from './api-client.ts';
export type { Factories } from './factories.ts';
export type { Sql } from './sql.ts';
