import { defineConfig } from 'vitest/config';

// The root project tests the scripts (`pnpm start`); each package has its own config.
export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    include: ['scripts/**/*.test.ts'],
    testTimeout: 30_000,
    // Dropping a test database waits for a checkpoint, which takes seconds on a loaded CI machine.
    hookTimeout: 60_000,
  },
});
