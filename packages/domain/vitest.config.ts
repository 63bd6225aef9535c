import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/test-support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
