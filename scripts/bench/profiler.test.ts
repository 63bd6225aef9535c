import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { connectProfiler, INSPECTOR_LINE } from './profiler.ts';

// A child that keeps a named function busy, as the stack keeps its request handlers. Never
// optimized, so that V8 cannot inline it into the timer code that calls it (its samples would
// then carry the caller's name).
const BUSY_CHILD = `
function busyHashing() { let x = 0; for (let i = 0; i < 2e5; i++) x = (x * 31 + i) % 1000003; return x; }
%NeverOptimizeFunction(busyHashing);
setInterval(busyHashing, 1);
`;

describe('the per-scenario profiler', () => {
  const child = spawn(
    process.execPath,
    ['--allow-natives-syntax', '--inspect=127.0.0.1:0', '-e', BUSY_CHILD],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  afterAll(() => {
    child.kill('SIGKILL');
  });

  it('profiles a child through its inspector, between start and stop only', async () => {
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no inspector line')), 10_000);
      createInterface({ input: child.stderr }).on('line', (text) => {
        const match = INSPECTOR_LINE.exec(text);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const profiler = await connectProfiler(address);
    try {
      // A busy second before the start, which the profile must not hold.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await profiler.start();
      await new Promise((resolve) => setTimeout(resolve, 400));
      const profile = await profiler.stop();
      const names = profile.nodes.map(
        (node) => (node as { callFrame: { functionName: string } }).callFrame.functionName,
      );
      expect(names, names.join(', ')).toContain('busyHashing');
      expect(profile.samples?.length).toBeGreaterThan(100);
      // The 400 ms asked for (times in µs), not the second before.
      const spanMs = (profile.endTime - profile.startTime) / 1000;
      expect(spanMs).toBeGreaterThanOrEqual(350);
      expect(spanMs).toBeLessThan(1_000);
    } finally {
      profiler.close();
    }
  }, 20_000);
});
