import { describe, expect, it } from 'vitest';
import { measureInTurns } from './compare.ts';
import { formatTable, type Figures, type Scenario } from './measure.ts';
import { peerShares } from './peer-rounds.ts';
import { mergeReferenceRounds } from './reference-rounds.ts';

function figures(name: string, cpuMicrosPerRequest: number, requestsPerSecond: number): Figures {
  return {
    name,
    reference: name.startsWith('reference:') ? null : 'sign2',
    requestsPerSecond,
    p50: 1,
    p99: 2,
    errors: 0,
    statuses: { '200': 100 },
    requests: 100,
    connections: 16,
    cpuMicrosPerRequest,
    bytesPerResponse: 900,
  };
}

const scenario = (name: string): Scenario => ({ name, reference: 'sign2', url: 'http://x/' });

describe('a token scenario measured beside the bench peer', () => {
  it('takes turns among ours, the reference and the peer, starting one later each round', async () => {
    const calls: string[] = [];
    const sides = {
      ours: scenario('POST /oauth/token'),
      reference: scenario('reference: sign2'),
      peer: scenario('peer: POST /oauth/token'),
    };
    const rounds = await measureInTurns(sides, 3, async (measured, side) => {
      calls.push(side);
      return figures(measured.name, 100, 1000);
    });
    expect(calls).toEqual([
      ...['ours', 'reference', 'peer'],
      ...['reference', 'peer', 'ours'],
      ...['peer', 'ours', 'reference'],
    ]);
    expect(rounds.map((round) => round.peer.name)).toEqual(
      Array(3).fill('peer: POST /oauth/token'),
    );
  });

  it("prints ours over the peer's, req/s and CPU, round by round with the lowest and highest", () => {
    // The machine slows down twice: ours stays at 0.8 of the peer's rate and 1.25 of its CPU,
    // then catches up in the third round.
    const rounds = [
      {
        ours: figures('POST /oauth/token', 1250, 800),
        theirs: figures('peer: POST /oauth/token', 1000, 1000),
      },
      {
        ours: figures('POST /oauth/token', 2500, 400),
        theirs: figures('peer: POST /oauth/token', 2000, 500),
      },
      {
        ours: figures('POST /oauth/token', 1000, 1000),
        theirs: figures('peer: POST /oauth/token', 1000, 1000),
      },
    ];
    const shares = peerShares(rounds);
    expect(shares).toEqual({
      rounds: 3,
      peerErrors: 0,
      rate: { median: 0.8, low: 0.8, high: 1 },
      cpu: { median: 1.25, low: 1, high: 1.25 },
    });
    const ours = {
      ...mergeReferenceRounds({
        name: 'POST /oauth/token',
        rounds: rounds.map(({ ours }) => ({
          ours,
          theirs: figures('reference: sign2', 1000, 1000),
        })),
      }),
      peer: shares,
    };
    const table = formatTable([{ size: 'small', figures: [ours] }]).split('\n');
    expect(table[0]).toMatch(/\| +req\/s ÷ peer \| +cpu ÷ peer \|$/);
    expect(table[2]).toMatch(/\| 0\.80 \(0\.80–1\.00\) \| 1\.25 \(1\.00–1\.25\) \|$/);
  });

  it('leaves the peer columns out of a run without the peer', () => {
    const table = formatTable([{ size: 'small', figures: [figures('GET /a', 100, 1000)] }]);
    expect(table).not.toContain('peer');
  });
});
