import { defineConfig, type ViteUserConfig } from 'vitest/config';

interface PackageTestOptions {
  /** The package has `src/test-support/global-setup.ts` (databases and the like). */
  globalSetup?: boolean;
  testTimeout?: number;
}

/**
 * The vitest configuration every package shares: its TypeScript sources through the
 * `development` export condition, and its tests beside them under `src/`.
 */
export function packageTestConfig({
  globalSetup = false,
  testTimeout = 60_000,
}: PackageTestOptions = {}): ViteUserConfig {
  return defineConfig({
    resolve: { conditions: ['development'] },
    ssr: { resolve: { conditions: ['development'] } },
    test: {
      include: ['src/**/*.test.ts'],
      ...(globalSetup ? { globalSetup: ['./src/test-support/global-setup.ts'] } : {}),
      // A file's test database is made in its first test (file fixtures) or in a hook
      // (`beforeAll`), and creating it from the template waits for a checkpoint: past 20 s on
      // a loaded CI machine.
      testTimeout,
      hookTimeout: 60_000,
    },
  });
}
