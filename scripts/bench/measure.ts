// One scenario measured with autocannon, and the table and JSON `pnpm bench` prints.
import autocannon from 'autocannon';
import type { ReferenceName } from './reference-server.ts';
import type { Spread } from './stats.ts';

export interface Scenario {
  name: string;
  /** The reference whose ratio is printed beside this scenario's figures. */
  reference: ReferenceName | null;
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** The status every answer must have (anything else is an error); default any 2xx. */
  expectStatus?: number;
  /** Run before the scenario (and its warm-up): puts the data in the state it starts from. */
  prepare?: () => Promise<void>;
  connections?: number;
  /** Requests built one at a time (a new body, a token from the previous answer, ...). */
  requests?: autocannon.Request[];
  /** A fixed number of requests instead of a duration (single-use inputs such as codes). */
  amount?: number;
  /** A read: its large/small ratio is a goal (cost flat as the data grows). */
  read?: boolean;
}

export interface Figures {
  name: string;
  reference: ReferenceName | null;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** Answers per status code, to see what the errors were. */
  statuses: Record<string, number>;
  requests: number;
  connections: number;
  /** CPU time of the server per request (microseconds), or null where it cannot be read. */
  cpuMicrosPerRequest: number | null;
  /**
   * Mean size of an answer in bytes, headers included: a read whose answer grows with the data
   * costs more for that alone (absent in the JSON of runs made before it was recorded).
   */
  bytesPerResponse?: number;
  /**
   * The scenario's shares of its reference when the two were measured in alternating rounds
   * (reference-rounds.ts); without it, the table divides by the reference's own row.
   */
  shares?: ReferenceShares;
  /** Ours over the bench peer's, when it was measured in rounds beside the peer (peer-rounds.ts). */
  peer?: PeerShares;
}

/** Each a median, lowest and highest over the rounds, each round's pair on its own. */
export interface ReferenceShares {
  rounds: number;
  /** Answers of the reference's rounds that failed: a failing reference skews the shares. */
  referenceErrors: number;
  /** The scenario's req/s over its reference's (null: the reference answered nothing). */
  rate: Spread | null;
  /** The reference's CPU per request over the scenario's (null where the kernel does not say). */
  cpu: Spread | null;
}

/**
 * The scenario against the same work on node-oidc-provider (peer-server.ts), measured in the
 * same rounds: each a median, lowest and highest of the rounds, each round's pair on its own.
 */
export interface PeerShares {
  rounds: number;
  /** Answers of the peer's rounds that failed. */
  peerErrors: number;
  /** Our req/s over the peer's: above 1, ours serves more. */
  rate: Spread | null;
  /** Our CPU per request over the peer's: below 1, ours costs less. */
  cpu: Spread | null;
}

export interface MeasureOptions {
  seconds: number;
  connections: number;
  /** Seconds of unmeasured load first, so that pools, caches and the JIT are warm. */
  warmupSeconds?: number;
  /** The CPU time used so far by the server the scenario loads (Child.cpuMicros). */
  serverCpuMicros?: () => number | null;
  /** Run right before and right after the measured seconds (a CPU profile of them). */
  beforeMeasured?: () => Promise<void>;
  afterMeasured?: () => Promise<void>;
}

function autocannonOptions(scenario: Scenario, options: MeasureOptions, seconds: number) {
  return {
    url: scenario.url,
    method: scenario.method ?? 'GET',
    connections: scenario.connections ?? options.connections,
    // autocannon notices the end of an amount only at a sample's tick: with its default of a
    // second, a run of 1.2 s counted as 2 and every fast server scored the same.
    ...(scenario.amount === undefined
      ? { duration: seconds }
      : { amount: scenario.amount, sampleInt: 10 }),
    ...(scenario.headers ? { headers: scenario.headers } : {}),
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    ...(scenario.requests ? { requests: scenario.requests } : {}),
    // A request that takes longer than this is an error, not a stall of the whole run.
    timeout: 10,
  } satisfies autocannon.Options;
}

export async function measure(scenario: Scenario, options: MeasureOptions): Promise<Figures> {
  await scenario.prepare?.();
  if (options.warmupSeconds && scenario.amount === undefined) {
    await autocannon(autocannonOptions(scenario, options, options.warmupSeconds));
    await scenario.prepare?.();
  }
  await options.beforeMeasured?.();
  const cpuBefore = options.serverCpuMicros?.() ?? null;
  const result = await autocannon(autocannonOptions(scenario, options, options.seconds));
  const cpuAfter = options.serverCpuMicros?.() ?? null;
  await options.afterMeasured?.();
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [
      status,
      (stats as { count: number }).count,
    ]),
  );
  const expected = (status: string) =>
    scenario.expectStatus === undefined
      ? status.startsWith('2')
      : status === String(scenario.expectStatus);
  const unexpected = Object.entries(statuses)
    .filter(([status]) => !expected(status))
    .reduce((total, [, count]) => total + count, 0);
  return {
    name: scenario.name,
    reference: scenario.reference,
    requestsPerSecond: Math.round(
      scenario.amount === undefined
        ? result.requests.average
        : result.requests.total / Math.max(result.duration, 0.001),
    ),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + unexpected,
    statuses,
    requests: result.requests.total,
    connections: scenario.connections ?? options.connections,
    cpuMicrosPerRequest:
      cpuBefore === null || cpuAfter === null || result.requests.total === 0
        ? null
        : Math.round((cpuAfter - cpuBefore) / result.requests.total),
    bytesPerResponse:
      result.requests.total === 0 ? 0 : Math.round(result.throughput.total / result.requests.total),
  };
}

export interface SizeRun {
  size: string;
  figures: Figures[];
}

function referenceFigures(run: SizeRun, reference: ReferenceName | null): Figures | undefined {
  return reference ? run.figures.find((f) => f.name === `reference: ${reference}`) : undefined;
}

/**
 * The scenario's req/s and CPU as shares of its reference's: the medians of its alternating
 * rounds where it had them, else against the reference's own row of the run.
 */
function sharesOf(run: SizeRun, figures: Figures): { rate: number | null; cpu: number | null } {
  if (figures.shares) {
    return { rate: figures.shares.rate?.median ?? null, cpu: figures.shares.cpu?.median ?? null };
  }
  const reference = referenceFigures(run, figures.reference);
  const cpu = figures.cpuMicrosPerRequest;
  const cpuReference = reference?.cpuMicrosPerRequest;
  return {
    rate: reference?.requestsPerSecond
      ? figures.requestsPerSecond / reference.requestsPerSecond
      : null,
    // The reference's CPU per request over this scenario's: the share of the reference's
    // efficiency reached, like `% ref` but untouched by what else the machine runs.
    cpu: cpu && cpuReference ? cpuReference / cpu : null,
  };
}

const percent = (value: number | null) => (value === null ? '–' : `${Math.round(value * 100)} %`);

/** `cpu % ref`, with the lowest and highest round where there were rounds: how far to trust it. */
function cpuShareCell(figures: Figures, share: number | null): string {
  const rounds = figures.shares?.cpu;
  if (!rounds || figures.shares!.rounds < 2) return percent(share);
  return `${percent(share)} (${Math.round(rounds.low * 100)}–${Math.round(rounds.high * 100)})`;
}
const ratio = (value: number | null) => (value === null ? '–' : value.toFixed(2));

/** Ours over the peer's, with the lowest and highest round where there were rounds. */
function peerCell(shares: PeerShares | undefined, value: Spread | null | undefined): string {
  if (!shares || !value) return '–';
  if (shares.rounds < 2) return ratio(value.median);
  return `${ratio(value.median)} (${ratio(value.low)}–${ratio(value.high)})`;
}

/** The table: per size req/s, p50, p99, % of the reference; then large/small. */
export function formatTable(runs: SizeRun[]): string {
  const names = [...new Set(runs.flatMap((run) => run.figures.map((f) => f.name)))];
  const header = ['Scenario', 'ref'];
  // Two more columns per size where a scenario was measured beside the bench peer.
  const withPeer = runs.some((run) => run.figures.some((figures) => figures.peer));
  for (const run of runs) {
    header.push(`${run.size} req/s`, 'p50', 'p99', '% ref', 'err', 'µs/req', 'cpu % ref', 'B/ans');
    if (withPeer) header.push('req/s ÷ peer', 'cpu ÷ peer');
  }
  // The second ratio divides out the machine: the same quotient of the shares of the reference,
  // which a busy machine (other work between the two sizes) does not skew.
  if (runs.length === 2) header.push(`${runs[1]!.size}/${runs[0]!.size}`, 'vs ref');
  const rows = names.map((name) => {
    const cells = [name];
    const first = runs.map((run) => run.figures.find((f) => f.name === name));
    cells.push(first.find(Boolean)?.reference ?? '');
    for (const [index, run] of runs.entries()) {
      const figures = first[index];
      if (!figures) {
        cells.push('–', '–', '–', '–', '–', '–', '–', '–', ...(withPeer ? ['–', '–'] : []));
        continue;
      }
      const shares = sharesOf(run, figures);
      const cpu = figures.cpuMicrosPerRequest;
      cells.push(
        String(figures.requestsPerSecond),
        String(figures.p50),
        String(figures.p99),
        percent(shares.rate),
        String(figures.errors),
        cpu === null ? '–' : String(cpu),
        cpuShareCell(figures, shares.cpu),
        figures.bytesPerResponse === undefined ? '–' : String(figures.bytesPerResponse),
      );
      if (withPeer) {
        cells.push(
          peerCell(figures.peer, figures.peer?.rate),
          peerCell(figures.peer, figures.peer?.cpu),
        );
      }
    }
    if (runs.length === 2) {
      const [small, large] = first;
      const smallShare = small ? sharesOf(runs[0]!, small).rate : null;
      const largeShare = large ? sharesOf(runs[1]!, large).rate : null;
      cells.push(
        ratio(
          small && large ? large.requestsPerSecond / Math.max(small.requestsPerSecond, 1) : null,
        ),
        ratio(smallShare && largeShare !== null ? largeShare / smallShare : null),
      );
    }
    return cells;
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((width, column) => (column === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}
