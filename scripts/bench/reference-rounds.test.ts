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
  it('merges the rounds: the medians of its own, its shares of the reference round by round', async () => {
    // The machine slows down twice and four times over: the scenario stays at 80 % of its
    // reference's CPU and 60 % of its rate in each round, though its own figures move.
    let call = 0;
    const [comparison] = await comparePaired(
      [{ ours: scenario, theirs: reference }],
      3,
      async (measured, side) => {
        const slowdown = [1, 2, 4][Math.floor(call++ / 2)]!;
        const failed = side === 'theirs' && slowdown === 4 ? 2 : 0;
        return side === 'ours'
          ? figures(measured.name, 100 * slowdown, 600 / slowdown, 10 * slowdown)
          : { ...figures(measured.name, 80 * slowdown, 1000 / slowdown), errors: failed };
      },
    );
    const merged = mergeReferenceRounds(comparison!);
    expect(merged.shares).toEqual({
      rounds: 3,
      referenceErrors: 2,
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

  it("prints the rounds' shares, not a quotient with the reference row measured at another time", () => {
    const rounds = (scale: number) =>
      mergeReferenceRounds({
        name: 'GET /a',
        rounds: [
          {
            ours: figures('GET /a', 200, 500 * scale),
            theirs: figures('reference: session-row', 130, 900),
          },
          {
            ours: figures('GET /a', 220, 480 * scale),
            theirs: figures('reference: session-row', 150, 850),
          },
          {
            ours: figures('GET /a', null, 490 * scale),
            theirs: figures('reference: session-row', 90, 800),
          },
        ],
      });
    // The reference's rows of the run, measured minutes earlier on a quieter machine, and at
    // the large size quieter still.
    const small = {
      size: 'small',
      figures: [figures('reference: session-row', 50, 5000), rounds(1)],
    };
    const large = {
      size: 'large',
      figures: [figures('reference: session-row', 40, 8000), rounds(0.5)],
    };
    const table = formatTable([small, large]).split('\n');
    // GitHub's tables: a delimiter cell is dashes with an optional colon at either end.
    expect(table[1]).toMatch(/^\|-+\|(-+:\|)+$/);
    const row = table.find((line) => line.startsWith('| GET /a'));
    // rate: 0.556, 0.565, 0.613 → 56 %; CPU: 0.65 and 0.68 (the third round has no figure) →
    // 67 %, from 65 to 68
    expect(row).toMatch(
      /^\| GET \/a +\| +session-row \| +490 \| +1 \| +2 \| +56 % \| +3 \| +210 \| +67 % \(65–68\) \| +500 \|/,
    );
    // At large, half the rate beside the same reference: 0.50 raw and against the reference
    // (the reference rows' quotient would say 0.31).
    expect(row).toMatch(
      /\| +245 \| +1 \| +2 \| +28 % \| +3 \| +210 \| +67 % \(65–68\) \| +500 \| +0\.50 \| +0\.50 \|$/,
    );
  });
});
