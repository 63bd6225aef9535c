import { describe, expect, it } from 'vitest';
import { arrivedAtMs } from './grant.ts';

describe('arrivedAtMs', () => {
  it('never dates a request before a rotation that ended earlier in the same millisecond', () => {
    // The rotation ends at 1000.1 ms (rotatedAt: Date.now() = 1000); the reuse arrives at
    // 1000.2 and is handled at 1000.9, when Date.now() still says 1000 and 0.7 ms have passed.
    const rotatedAt = Math.floor(1000.1);
    const arrived = arrivedAtMs(Math.floor(1000.9), 1000.9 - 1000.2);
    expect(arrived).toBeGreaterThanOrEqual(rotatedAt);
  });

  it('dates a request by the millisecond it arrived in, or the next', () => {
    expect(arrivedAtMs(5000, 0)).toBe(5000);
    expect(arrivedAtMs(5000, 2.5)).toBe(4998);
    expect(arrivedAtMs(5001, 1.2)).toBe(5000);
  });
});
