// A token scenario against the bench peer (peer-server.ts): both measured in the same rounds,
// and ours over the peer's taken round by round, as a scenario's shares of its reference are
// (reference-rounds.ts).
import { roundRatios, type PairedRound } from './compare.ts';
import type { PeerShares } from './measure.ts';
import { spread } from './stats.ts';

/** Ours over the peer's, req/s and CPU per request: `theirs` of each round is the peer. */
export function peerShares(rounds: PairedRound[]): PeerShares {
  return {
    rounds: rounds.length,
    peerErrors: rounds.reduce((total, { theirs }) => total + theirs.errors, 0),
    rate: spread(roundRatios(rounds, (figures) => figures.requestsPerSecond)),
    cpu: spread(roundRatios(rounds, (figures) => figures.cpuMicrosPerRequest)),
  };
}
