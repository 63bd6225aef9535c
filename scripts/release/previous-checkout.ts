import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { git, ROOT, type Release } from './previous-release.ts';

const run = promisify(execFile);

/**
 * A checkout of `release` beside this one, installed with its own lockfile: a git worktree
 * under `.data/releases/`, made once and kept for later runs.
 */
export async function releaseCheckout(release: Release, root = ROOT): Promise<string> {
  const folder = path.join(
    root,
    '.data',
    'releases',
    `${release.version}-${release.commit.slice(0, 12)}`,
  );
  if (!existsSync(path.join(folder, 'package.json'))) {
    git(['worktree', 'prune'], root);
    git(['worktree', 'add', '--detach', '--force', folder, release.commit], root);
  }
  if (!existsSync(path.join(folder, 'node_modules', '.modules.yaml'))) {
    await run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], {
      cwd: folder,
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, CI: 'true' },
    });
  }
  return folder;
}
