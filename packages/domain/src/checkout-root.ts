import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The root of the checkout this package lies in: the nearest directory above it with
 * pnpm-workspace.yaml (from src/ and from dist/ alike), so that the auth service, the CLI,
 * `pnpm start` and every test worker of one checkout find the same `.data/` whatever their
 * working directory. Outside a checkout (an image without the workspace file) the working
 * directory.
 */
export function checkoutRoot(): string {
  let dir = import.meta.dirname;
  for (;;) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}
