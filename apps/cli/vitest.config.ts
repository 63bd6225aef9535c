import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/test-support/global-setup.ts'],
    // Many tests spawn the CLI as a process, which loads the whole domain from TypeScript source:
    // seconds on an idle machine, far more while the other suites share its two cores in CI
    // (four processes in one test took over 60 s there once the cluster and failover suites ran
    // beside it).
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
