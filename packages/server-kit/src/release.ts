import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a running service is: its release's version and the commit it was built from. */
export interface ServiceRelease {
  version: string;
  commit: string;
}

const known = new Map<string, ServiceRelease>();

/**
 * The release of the app whose package.json is at `packageJson`: the version from that file
 * (release.json names the same one, checked by scripts/release), the commit from
 * RELEASE_COMMIT (an image's build argument, given as `releaseCommit`) or else the checkout's
 * git, or `unknown`.
 */
export function serviceRelease(packageJson: URL, releaseCommit?: string): ServiceRelease {
  const file = fileURLToPath(packageJson);
  let release = known.get(file);
  if (!release) {
    const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
    release = { version, commit: checkoutCommit(path.dirname(file)) };
    known.set(file, release);
  }
  return releaseCommit ? { ...release, commit: releaseCommit } : release;
}

function checkoutCommit(folder: string): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 2_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}
