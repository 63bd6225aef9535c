// The release this checkout follows, as `release.json` names it: its version and commit. Read
// from the repository itself, since a clone may lack tags (docs/operations.md §1).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface Release {
  version: string;
  commit: string;
}

export interface ReleaseFile {
  version: string;
  previous: Release;
}

export function readReleaseFile(root = ROOT): ReleaseFile {
  return JSON.parse(readFileSync(path.join(root, 'release.json'), 'utf8')) as ReleaseFile;
}

/** Runs git in the checkout; throws with git's own message when it fails. */
export function git(args: readonly string[], root = ROOT): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The previous release, checked to be in this clone's history. */
export function previousRelease(root = ROOT): Release {
  const { previous } = readReleaseFile(root);
  try {
    git(['cat-file', '-e', `${previous.commit}^{commit}`], root);
  } catch {
    throw new Error(
      `the previous release ${previous.version} (${previous.commit}) is not in this clone: fetch the history (git fetch --unshallow)`,
    );
  }
  return previous;
}

/** The files under `folder` at `commit`, as paths from the repository root. */
export function filesAt(commit: string, folder: string, root = ROOT): string[] {
  return git(['ls-tree', '-r', '--name-only', commit, '--', folder], root)
    .split('\n')
    .filter(Boolean);
}

/** A file's text at `commit`. */
export function fileAt(commit: string, file: string, root = ROOT): string {
  return git(['show', `${commit}:${file}`], root);
}
