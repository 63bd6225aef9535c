// Two sides measured in alternating short rounds, so that both see the same moments of a
// shared machine: with `pnpm bench --against DIR` this checkout's stack and another
// checkout's, in a normal run a scenario and its reference (reference-rounds.ts). Compared in
// separate runs, the same code moved by 10 to 40 % here (docs/benchmarks.md §1); paired round by
// round, a change shows through that drift.
import type { Figures, Scenario } from './measure.ts';
import { median, spread, type Spread } from './stats.ts';

/** One round of one scenario on each stack. */
export interface PairedRound {
  ours: Figures;
  theirs: Figures;
}

export interface Comparison {
  name: string;
  rounds: PairedRound[];
}

export interface PairedSummary {
  name: string;
  /** Median CPU per request over the rounds, µs (null where the kernel does not say). */
  ours: number | null;
  theirs: number | null;
  /** Median, lowest and highest of ours over theirs, each round's pair on its own. */
  cpuRatio: Spread | null;
  /** The same for req/s. */
  rateRatio: Spread | null;
  errors: number;
}

/**
 * Each round's figure of `ours` over that of `theirs`, for the rounds that have both (and a
 * `theirs` above 0): a ratio taken within a round, so that a drift both sides share drops out.
 */
export function roundRatios(
  rounds: PairedRound[],
  pick: (figures: Figures) => number | null,
): number[] {
  return rounds.flatMap(({ ours, theirs }) => {
    const [over, under] = [pick(ours), pick(theirs)];
    return over === null || under === null || under <= 0 ? [] : [over / under];
  });
}

/** Medians of both sides and of the per-round ratios (a round's ratio needs both figures). */
export function summarize(comparison: Comparison): PairedSummary {
  const side = (pick: (round: PairedRound) => number | null) => {
    const values = comparison.rounds.map(pick).filter((value) => value !== null);
    return values.length === 0 ? null : Math.round(median(values));
  };
  return {
    name: comparison.name,
    ours: side(({ ours }) => ours.cpuMicrosPerRequest),
    theirs: side(({ theirs }) => theirs.cpuMicrosPerRequest),
    cpuRatio: spread(roundRatios(comparison.rounds, (figures) => figures.cpuMicrosPerRequest)),
    rateRatio: spread(roundRatios(comparison.rounds, (figures) => figures.requestsPerSecond)),
    errors: comparison.rounds.reduce(
      (total, { ours, theirs }) => total + ours.errors + theirs.errors,
      0,
    ),
  };
}

const ratio = (value: Spread | null) =>
  value === null
    ? '–'
    : `${value.median.toFixed(2)} (${value.low.toFixed(2)}–${value.high.toFixed(2)})`;

/** The comparison as a Markdown table: below 1.00 in the CPU column, this checkout costs less. */
export function formatComparison(size: string, rounds: number, summaries: PairedSummary[]): string {
  const header = [
    'Scenario',
    'µs/req here',
    'µs/req there',
    'CPU here/there (low–high)',
    'req/s here/there (low–high)',
    'err',
  ];
  const rows = summaries.map((summary) => [
    summary.name,
    String(summary.ours ?? '–'),
    String(summary.theirs ?? '–'),
    ratio(summary.cpuRatio),
    ratio(summary.rateRatio),
    String(summary.errors),
  ]);
  return [
    `${size}: ${rounds} paired rounds per scenario`,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, index) => (index === 0 ? '---' : '--:')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/**
 * Measures each side once per round, `rounds` times, in an order that turns by one side every
 * round (for two sides: flips), so that no side always follows the same other side's load.
 */
export async function measureInTurns<Side extends string>(
  sides: Record<Side, Scenario>,
  rounds: number,
  measureOne: (scenario: Scenario, side: Side) => Promise<Figures>,
): Promise<Record<Side, Figures>[]> {
  const names = Object.keys(sides) as Side[];
  const measured: Record<Side, Figures>[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = names.map((_, index) => names[(index + round) % names.length]!);
    const figures: Partial<Record<Side, Figures>> = {};
    for (const side of order) figures[side] = await measureOne(sides[side], side);
    measured.push(figures as Record<Side, Figures>);
  }
  return measured;
}

/** Runs `measureOne` on each pair `rounds` times, the two sides in turns (`measureInTurns`). */
export async function comparePaired(
  pairs: { ours: Scenario; theirs: Scenario }[],
  rounds: number,
  measureOne: (scenario: Scenario, side: 'ours' | 'theirs') => Promise<Figures>,
): Promise<Comparison[]> {
  const comparisons: Comparison[] = [];
  for (const pair of pairs) {
    comparisons.push({
      name: pair.ours.name,
      rounds: await measureInTurns(pair, rounds, measureOne),
    });
  }
  return comparisons;
}
