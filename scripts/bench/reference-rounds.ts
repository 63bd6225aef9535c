// A scenario and its reference measured in alternating rounds, as `--against` alternates two
// stacks. Measured once each, minutes apart, a scenario's share of its reference moved with
// whatever the shared machine did in between: in one full run the `session-row` reference
// cost 115 µs per request and the same work in bare Fastify, measured right after it, 82. A
// share taken round by round, each scenario's measurement beside its reference's, leaves
// that drift out, and the median of the rounds the bursts.
import { roundRatios, type Comparison } from './compare.ts';
import type { Figures } from './measure.ts';
import { median, spread } from './stats.ts';

/**
 * The rounds of one scenario (`ours`) against its reference (`theirs`) as one row of figures:
 * the medians of the scenario's rounds (errors, statuses and requests summed), and its shares
 * of the reference, each round's pair on its own.
 */
export function mergeReferenceRounds(comparison: Comparison): Figures {
  const scenario = comparison.rounds.map((round) => round.ours);
  const first = scenario[0];
  if (!first) throw new Error(`no rounds of ${comparison.name}`);
  const middle = (pick: (figures: Figures) => number | null | undefined): number | null => {
    const values = scenario.map(pick).filter((value) => value !== null && value !== undefined);
    return values.length === 0 ? null : Math.round(median(values));
  };
  const statuses: Record<string, number> = {};
  for (const figures of scenario) {
    for (const [status, count] of Object.entries(figures.statuses)) {
      statuses[status] = (statuses[status] ?? 0) + count;
    }
  }
  const bytes = middle((figures) => figures.bytesPerResponse);
  return {
    name: first.name,
    reference: first.reference,
    requestsPerSecond: middle((figures) => figures.requestsPerSecond) ?? 0,
    p50: middle((figures) => figures.p50) ?? 0,
    p99: middle((figures) => figures.p99) ?? 0,
    errors: scenario.reduce((total, figures) => total + figures.errors, 0),
    statuses,
    requests: scenario.reduce((total, figures) => total + figures.requests, 0),
    connections: first.connections,
    cpuMicrosPerRequest: middle((figures) => figures.cpuMicrosPerRequest),
    ...(bytes === null ? {} : { bytesPerResponse: bytes }),
    shares: {
      rounds: comparison.rounds.length,
      referenceErrors: comparison.rounds.reduce((total, { theirs }) => total + theirs.errors, 0),
      rate: spread(roundRatios(comparison.rounds, (figures) => figures.requestsPerSecond)),
      // The reference's CPU over the scenario's: the sides swapped.
      cpu: spread(
        roundRatios(
          comparison.rounds.map(({ ours, theirs }) => ({ ours: theirs, theirs: ours })),
          (figures) => figures.cpuMicrosPerRequest,
        ),
      ),
    },
  };
}
