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
  testTimeout = 20_000,
}: PackageTestOptions = {}): ViteUserConfig {
  return defineConfig({
    resolve: { conditions: ['development'] },
    ssr: { resolve: { conditions: ['development'] } },
    test: {
      include: ['src/**/*.test.ts'],
      ...(globalSetup ? { globalSetup: ['./src/test-support/global-setup.ts'] } : {}),
      testTimeout,
      // Creating a test database from its template waits for a checkpoint: seconds on a
      // loaded CI machine.
      hookTimeout: 60_000,
    },
  });
}
