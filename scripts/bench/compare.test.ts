import { describe, expect, it } from 'vitest';
import { comparePaired, formatComparison, summarize } from './compare.ts';
import type { Figures, Scenario } from './measure.ts';

function figures(name: string, cpuMicrosPerRequest: number | null, requestsPerSecond: number) {
  return {
    name,
    reference: null,
    requestsPerSecond,
    p50: 1,
    p99: 2,
    errors: 0,
    statuses: { '200': 100 },
    requests: 100,
    connections: 16,
    cpuMicrosPerRequest,
  } satisfies Figures;
}

const scenario = (name: string): Scenario => ({ name, reference: null, url: 'http://x/' });

describe('paired comparison of two stacks', () => {
  it('measures both sides each round, flipping their order every round', async () => {
    const calls: string[] = [];
    const pairs = [{ ours: scenario('GET /a'), theirs: scenario('GET /a') }];
    const [comparison] = await comparePaired(pairs, 3, async (measured, side) => {
      calls.push(side);
      return figures(measured.name, side === 'ours' ? 90 : 100, 1000);
    });
    expect(calls).toEqual(['ours', 'theirs', 'theirs', 'ours', 'ours', 'theirs']);
    expect(comparison!.rounds).toHaveLength(3);
    expect(
      comparison!.rounds.every(
        ({ ours, theirs }) => ours.cpuMicrosPerRequest === 90 && theirs.cpuMicrosPerRequest === 100,
      ),
    ).toBe(true);
  });

  it('takes each round as a pair: a drift that both sides share drops out of the ratio', () => {
    // The machine slows down by half and then by four times: the sides stay 0.8 apart.
    const rounds = [1, 2, 4].map((slowdown) => ({
      ours: figures('GET /a', 80 * slowdown, 1250 / slowdown),
      theirs: figures('GET /a', 100 * slowdown, 1000 / slowdown),
    }));
    const summary = summarize({ name: 'GET /a', rounds });
    expect(summary.ours).toBe(160);
    expect(summary.theirs).toBe(200);
    expect(summary.cpuRatio).toEqual({ median: 0.8, low: 0.8, high: 0.8 });
    expect(summary.rateRatio).toEqual({ median: 1.25, low: 1.25, high: 1.25 });
  });

  it('leaves out rounds without a CPU figure, and says so when none has one', () => {
    const summary = summarize({
      name: 'GET /a',
      rounds: [
        { ours: figures('GET /a', null, 900), theirs: figures('GET /a', 100, 1000) },
        { ours: figures('GET /a', 120, 900), theirs: figures('GET /a', 100, 1000) },
      ],
    });
    expect(summary.cpuRatio).toEqual({ median: 1.2, low: 1.2, high: 1.2 });
    const none = summarize({
      name: 'GET /b',
      rounds: [{ ours: figures('GET /b', null, 1), theirs: figures('GET /b', null, 1) }],
    });
    expect(none.cpuRatio).toBeNull();
    expect(formatComparison('small', 1, [none])).toContain(
      '| GET /b | – | – | – | 1.00 (1.00–1.00) | 0 |',
    );
  });
});
