import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isTestFile,
  relativeImportsOf,
  SERVICES,
  violationOf,
  violations,
  workspaceImported,
  workspaceViolationOf,
  workspaceViolations,
  type Workspace,
} from './import-direction.ts';

const ROOT = path.join(import.meta.dirname, '..');
const auth = SERVICES.find((layout) => layout.service === 'apps/auth')!;

const why = (from: string, to: string) => violationOf(auth, { from, to });

describe('the direction of imports', () => {
  it.each([
    ['endpoints/revoke/revoke.routes.ts', 'endpoints/token/client-authentication.ts'],
    ['interactions/login/login.routes.ts', 'endpoints/authorize/authorization-flow.ts'],
    ['interactions/login/login.routes.ts', 'interactions/connected-apps/connected-apps.page.ts'],
    ['admin/login-location.ts', 'interactions/login/return-to.ts'],
    ['endpoints/userinfo/userinfo.routes.test.ts', 'endpoints/token/issue-tokens.ts'],
  ])('refuses a feature importing another: %s → %s', (from, to) => {
    expect(why(from, to)).toMatch(/^the feature .* imports the feature /);
  });

  it.each([
    ['plugins/token-state.ts', 'endpoints/token/refresh-token-codec.ts'],
    ['oauth/authorization-responses.ts', 'interactions/login/login.page.ts'],
    ['stores/consents.store.ts', 'admin/admin.page.ts'],
    ['observability/audit-events.test.ts', 'endpoints/token/issue-tokens.ts'],
  ])('refuses a shared layer importing a feature: %s → %s', (from, to) => {
    expect(why(from, to)).toMatch(/^a shared layer imports the feature /);
  });

  it.each([
    ['endpoints/token/token-helpers.ts', 'app.ts'],
    ['oauth/error-boundary.ts', 'app.ts'],
  ])('refuses production code importing the app: %s → %s', (from, to) => {
    expect(why(from, to)).toMatch(/^only tests and test code import app\.ts/);
  });

  it('refuses production code importing test code', () => {
    expect(why('endpoints/token/token.routes.ts', 'test-support/token-helpers.ts')).toBe(
      'production code imports test code',
    );
  });

  it('refuses a file loose in a folder of features', () => {
    expect(why('interactions/interaction-rate-limit.ts', 'pages/locale.ts')).toMatch(
      /^interactions\/ holds features only/,
    );
  });

  it.each([
    ['endpoints/token/token.routes.ts', 'endpoints/token/grants/grant.ts'],
    ['endpoints/token/grants/grant.ts', 'oauth/oauth-errors.ts'],
    ['interactions/login/login.routes.ts', 'oauth/authorization-flow.ts'],
    ['plugins/token-state.ts', 'oauth/refresh-token-codec.ts'],
    ['endpoints/token/token.routes.test.ts', 'app.ts'],
    ['endpoints/token/token.routes.test.ts', 'test-support/token-helpers.ts'],
    ['test-support/token-helpers.ts', 'app.ts'],
    ['test-support/token-helpers.ts', 'endpoints/token/issue-tokens.ts'],
    ['dependency-faults.test.ts', 'endpoints/token/issue-tokens.ts'],
    ['app.ts', 'admin/oauth-clients.routes.ts'],
    ['config.ts', '../package.json'],
  ])('allows %s → %s', (from, to) => {
    expect(why(from, to)).toBeNull();
  });

  it('reads static, type-only, re-exporting and dynamic imports, and only relative ones', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "const d = await import('./d.ts');",
      "import { e } from '@foodshare/domain';",
      "// import { f } from './f.ts' is text in a comment",
    ].join('\n');
    expect(relativeImportsOf(source)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts']);
  });

  it.each(SERVICES.map((layout) => [layout.service, layout] as const))(
    'holds in %s',
    (_service, layout) => {
      expect(violations(ROOT, layout)).toEqual([]);
    },
  );
});

describe('the direction of imports between workspaces', () => {
  const workspaces: Workspace[] = [
    { name: '@foodshare/api', folder: 'apps/api', app: true },
    { name: '@foodshare/auth', folder: 'apps/auth', app: true },
    { name: '@foodshare/cli', folder: 'apps/cli', app: true },
    { name: '@foodshare/domain', folder: 'packages/domain', app: false },
    { name: '@foodshare/relying-party', folder: 'packages/relying-party', app: false },
  ];
  const [api, authApp, cli, domain, relyingParty] = workspaces as [
    Workspace,
    Workspace,
    Workspace,
    Workspace,
    Workspace,
  ];
  const whyBetween = (from: Workspace, file: string, specifier: string) =>
    workspaceViolationOf(from, workspaceImported(workspaces, from, file, specifier));

  it('refuses an app importing another app', () => {
    expect(whyBetween(cli, 'commands/keys.command.ts', '@foodshare/auth/app')).toBe(
      'the app @foodshare/cli imports the app @foodshare/auth; share through a package',
    );
    expect(whyBetween(authApp, 'admin/admin.page.ts', '../../../api/src/app.ts')).toMatch(
      /^the app @foodshare\/auth imports the app @foodshare\/api/,
    );
  });

  it('refuses a package importing an app', () => {
    expect(whyBetween(relyingParty, 'index.ts', '@foodshare/auth/config')).toBe(
      'the package @foodshare/relying-party imports the app @foodshare/auth; packages sit below the apps',
    );
  });

  it.each([
    [api, 'app.ts', '@foodshare/domain'],
    [cli, 'commands/users/users.command.ts', '@foodshare/domain'],
    [authApp, 'app.ts', './config.ts'],
    [domain, 'index.ts', 'typebox'],
    [relyingParty, 'relying-party.ts', '@foodshare/domain'],
  ])('allows %# (an app or package importing a package or itself)', (from, file, specifier) => {
    expect(whyBetween(from, file, specifier)).toBeNull();
  });

  it('counts test files and test folders as tests, which may start another app', () => {
    expect(isTestFile(cli, 'commands/users/reset-password.command.test.ts')).toBe(true);
    expect(isTestFile(cli, 'test-support/fixtures.ts')).toBe(true);
    expect(isTestFile(authApp, 'conformance/logout.test.ts')).toBe(true);
    expect(isTestFile(authApp, 'browser/pages.ts')).toBe(true);
    expect(isTestFile(cli, 'commands/users/reset-password.command.ts')).toBe(false);
  });

  it('holds in every app and package', () => {
    expect(workspaceViolations(ROOT)).toEqual([]);
  });
});
