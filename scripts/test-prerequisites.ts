// The programs some tests drive beside Node: each comes from a Debian package. `pnpm test`
// checks them before anything runs, so that a missing one is named at once and not after
// minutes of other tests.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export interface Prerequisite {
  /** The program looked for on PATH, or the absolute path of a file the package installs. */
  program: string;
  /** The Debian package that brings it. */
  debianPackage: string;
  /** Which tests need it. */
  neededBy: string;
}

export const TEST_PREREQUISITES: readonly Prerequisite[] = [
  { program: 'chromium', debianPackage: 'chromium', neededBy: 'the browser tests' },
  { program: 'pdftotext', debianPackage: 'poppler-utils', neededBy: 'the passport tests' },
  { program: 'caddy', debianPackage: 'caddy', neededBy: 'the cluster tests' },
  {
    program: 'redis-sentinel',
    debianPackage: 'redis-sentinel',
    neededBy: 'the Redis failover test',
  },
  { program: 'pgbouncer', debianPackage: 'pgbouncer', neededBy: 'the connection-budget test' },
  {
    program: 'kubectl',
    debianPackage: 'kubernetes-client',
    neededBy: 'the Kubernetes manifest test',
  },
  { program: '/usr/sbin/apache2', debianPackage: 'apache2', neededBy: 'the Apache relying party' },
  {
    program: '/usr/lib/apache2/modules/mod_auth_openidc.so',
    debianPackage: 'libapache2-mod-auth-openidc',
    neededBy: 'the Apache relying party',
  },
  {
    program: '/usr/lib/python3/dist-packages/authlib/__init__.py',
    debianPackage: 'python3-authlib',
    neededBy: 'the Authlib relying party',
  },
  {
    // Authlib's OAuth2Session is built on requests, which python3-authlib does not pull in.
    program: '/usr/lib/python3/dist-packages/requests/__init__.py',
    debianPackage: 'python3-requests',
    neededBy: 'the Authlib relying party',
  },
];

function onPath(program: string, searchPath: string): boolean {
  if (path.isAbsolute(program)) return isExecutableOrFile(program, constants.R_OK);
  return searchPath
    .split(path.delimiter)
    .filter(Boolean)
    .some((folder) => {
      return isExecutableOrFile(path.join(folder, program), constants.X_OK);
    });
}

function isExecutableOrFile(file: string, mode: number): boolean {
  try {
    accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}

/** The prerequisites whose program is not on `searchPath`. */
export function missingPrerequisites(
  prerequisites: readonly Prerequisite[],
  searchPath: string,
): Prerequisite[] {
  return prerequisites.filter(({ program }) => !onPath(program, searchPath));
}

/** The command that installs them, as a reader would type it. */
export function installCommand(missing: readonly Prerequisite[]): string {
  return `apt-get install -y ${missing.map((item) => item.debianPackage).join(' ')}`;
}

/**
 * Installs what is missing from Debian where this process may (root, apt-get present), as
 * `.ci/run` did; otherwise returns the one line that names what is missing and how to get it.
 * Null when everything is there afterwards.
 */
export function ensurePrerequisites(
  prerequisites: readonly Prerequisite[] = TEST_PREREQUISITES,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const searchPath = env.PATH ?? '';
  const missing = missingPrerequisites(prerequisites, searchPath);
  if (missing.length === 0) return null;
  const names = missing.map((item) => `${item.program} (${item.neededBy})`).join(', ');
  const mayInstall = process.getuid?.() === 0 && onPath('apt-get', searchPath);
  if (mayInstall) {
    console.log(`[test] installing from Debian: ${missing.map((m) => m.debianPackage).join(' ')}`);
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env: aptEnv });
    const install =
      update.status === 0
        ? spawnSync(
            'apt-get',
            [
              'install',
              '-y',
              '-qq',
              '--no-install-recommends',
              ...missing.map((m) => m.debianPackage),
            ],
            { stdio: ['ignore', 'ignore', 'inherit'], env: aptEnv },
          )
        : update;
    if (install.status === 0 && missingPrerequisites(missing, searchPath).length === 0) return null;
  }
  return `[test] missing ${names}: install them with \`${installCommand(missing)}\`, then run pnpm test again.`;
}
