import { describe, expect, it } from 'vitest';
import { comparePaired } from './compare.ts';
import { formatTable, type Figures, type Scenario } from './measure.ts';
import { mergeReferenceRounds } from './reference-rounds.ts';

function figures(
  name: string,
  cpuMicrosPerRequest: number | null,
  requestsPerSecond: number,
  p99 = 2,
): Figures {
  return {
    name,
    reference: name.startsWith('reference:') ? null : 'session-row',
    requestsPerSecond,
    p50: 1,
    p99,
    errors: name.startsWith('reference:') ? 0 : 1,
    statuses: { '200': 100 },
    requests: 100,
    connections: 16,
    cpuMicrosPerRequest,
    bytesPerResponse: 500,
  };
}

const scenario: Scenario = { name: 'GET /a', reference: 'session-row', url: 'http://x/a' };
const reference: Scenario = { name: 'reference: session-row', reference: null, url: 'http://x/r' };

describe('a scenario measured in rounds beside its reference', () => {
  it('alternates the two, and takes its shares round by round, so drift drops out', async () => {
    // The machine slows down twice and four times over: the scenario stays at 80 % of its
    // reference's CPU and 60 % of its rate in each round, though its own figures move.
    const slowdowns = [1, 2, 4];
    const order: string[] = [];
    let call = 0;
    const [comparison] = await comparePaired(
      [{ ours: scenario, theirs: reference }],
      3,
      async (measured, side) => {
        order.push(measured.name);
        const slowdown = slowdowns[Math.floor(call++ / 2)]!;
        return side === 'ours'
          ? figures(measured.name, 100 * slowdown, 600 / slowdown, 10 * slowdown)
          : figures(measured.name, 80 * slowdown, 1000 / slowdown);
      },
    );
    const [a, ref] = ['GET /a', 'reference: session-row'];
    expect(order).toEqual([a, ref, ref, a, a, ref]);
    const merged = mergeReferenceRounds(comparison!);
    expect(merged.shares).toEqual({
      rounds: 3,
      rate: { median: 0.6, low: 0.6, high: 0.6 },
      cpu: { median: 0.8, low: 0.8, high: 0.8 },
    });
    // The scenario's own figures: the medians of its rounds, its errors and requests summed.
    expect(merged).toMatchObject({
      name: 'GET /a',
      cpuMicrosPerRequest: 200,
      requestsPerSecond: 300,
      p99: 20,
      errors: 3,
      requests: 300,
      statuses: { '200': 300 },
      bytesPerResponse: 500,
    });
  });

  it('prints the rounds shares, not a quotient with the reference row measured at another time', () => {
    const merged = mergeReferenceRounds({
      name: 'GET /a',
      rounds: [
        { ours: figures('GET /a', 200, 500), theirs: figures('reference: session-row', 130, 900) },
        { ours: figures('GET /a', 220, 480), theirs: figures('reference: session-row', 150, 850) },
        { ours: figures('GET /a', null, 490), theirs: figures('reference: session-row', 90, 800) },
      ],
    });
    // The reference's row of the run, measured minutes earlier on a quieter machine.
    const referenceRow = figures('reference: session-row', 50, 5000);
    const run = { size: 'small', figures: [referenceRow, merged] };
    const row = formatTable([run, { ...run, size: 'large' }])
      .split('\n')
      .find((line) => line.startsWith('| GET /a'));
    // rate: 0.556, 0.565, 0.613 → 56 %; CPU: 0.65 and 0.68 (the third round has no figure) → 67 %
    expect(row).toMatch(/\| +490 \| +1 \| +2 \| +56 % \| +3 \| +210 \| +67 % \| +500 \|/);
    // Same at both sizes: 1.00 raw and against the reference.
    expect(row).toMatch(/\| +1\.00 \| +1\.00 \|$/);
  });
});
