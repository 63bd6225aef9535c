// `pnpm bench`: the performance harness. For each data size it starts the real stack (as
// `pnpm start` does, in a child process), the reference servers (bare libraries, another
// child) and the bench peer (node-oidc-provider, for the OAuth endpoints), then measures every
// scenario with autocannon on loopback and prints a table: req/s, p50 and p99 latency, the
// ratio to the matching reference, ours ÷ peer, and large/small. Figures, not a pass/fail;
// JSON of the run is written for comparisons.
//
//   pnpm bench [--sizes small,large] [--rounds 3] [--duration 2] [--warmup 0.5]
//              [--connections 16] [--scale 1] [--only TEXT] [--reuse] [--no-peer] [--json FILE]
//   pnpm bench --profile [--duration 5] [--warmup 1] [...]
//   pnpm bench --against DIR [--rounds 6] [--duration 2] [--warmup 0.5] [...]
//   pnpm bench --table FILE   the table of an earlier run's JSON
//   pnpm bench --help         this text
//
//   --sizes      small: the demo data; large: the demo data grown by `demo grow --scale`
//                (both by default; with --against, small)
//   --only       the scenarios whose name contains TEXT (several: comma-separated)
//   --rounds     each scenario measured this many times, in turns with its reference, and
//                its shares of the reference taken round by round (medians printed); 1: each
//                once, for 5 s unless --duration says otherwise (2 s with --against), against
//                the reference's row
//   --reuse      keep fs_bench_large when it exists (growing takes about two minutes)
//   --no-peer    leave out the bench peer: node-oidc-provider doing the work of our token
//                endpoint, userinfo, JWKS and discovery (scripts/bench/peer-server.ts), measured
//                in the same rounds as those scenarios and printed beside them as ours ÷ peer
//                (on by default when --only selects one of them; not with --profile, --against)
//   --profile    a CPU profile of the stack per scenario, its measured seconds only, under
//                .data/bench/profile-<time>-<size>/ (through the stack's inspector, on loopback);
//                one round
//   --against    another checkout (e.g. a git worktree of an older commit, dependencies
//                installed): both stacks run side by side and every scenario is measured on
//                each in turn, --rounds times, and compared round by round (CPU per request
//                and req/s, here over there), which a shared machine's drift does not blur
//   DATABASE_URL server the fs_bench_* databases are made on (default 127.0.0.1:5432)
//   BENCH_DATABASE_PREFIX  another name than fs_bench for them, for runs at the same time
//   REDIS_URL    Redis for sessions and OAuth state (default 127.0.0.1:6379), under a bench: prefix
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { growDemoData, openOrm, prepareDemoDatabase } from '@foodshare/domain';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, withDatabaseName } from '@foodshare/testing';
import pg from 'pg';
import { comparePaired, formatComparison, measureInTurns, summarize } from './bench/compare.ts';
import {
  formatTable,
  measure,
  type Figures,
  type MeasureOptions,
  type Scenario,
  type SizeRun,
} from './bench/measure.ts';
import { mergeReferenceRounds } from './bench/reference-rounds.ts';
import { REFERENCES } from './bench/reference-server.ts';
import { rememberPeerConsent } from './bench/peer-consent.ts';
import { peerShares } from './bench/peer-rounds.ts';
import {
  oauthScenarios,
  peerNameOf,
  peerScenarios,
  readScenarios,
  referenceScenarios,
  writeScenarios,
  type DemoIds,
  type OAuthContext,
  type ScenarioContext,
} from './bench/scenarios.ts';
import {
  exchange,
  issueCodes,
  login,
  rememberConsent,
  type OAuthInputs,
} from './bench/sessions.ts';
import { startPeer, startReference, startStack, type Child } from './bench/stack.ts';

function parseOptions() {
  try {
    return parseArgs({
      options: {
        sizes: { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string', default: '16' },
        scale: { type: 'string', default: '1' },
        only: { type: 'string' },
        reuse: { type: 'boolean', default: false },
        peer: { type: 'boolean', default: true },
        profile: { type: 'boolean', default: false },
        against: { type: 'string' },
        rounds: { type: 'string' },
        json: { type: 'string' },
        table: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowNegative: true,
    }).values;
  } catch (error) {
    // A mistyped option: say so in one line, not with a stack trace.
    console.error(`bench: ${(error as Error).message} (pnpm bench --help lists the options)`);
    process.exit(2);
  }
}
const args = parseOptions();
// --only a,b: the scenarios whose name contains any of the texts (and the references).
const only = args.only?.split(',').filter(Boolean);

// --help prints the usage at the top of this file.
if (args.help) {
  const usage = readFileSync(import.meta.filename, 'utf8').split('\n');
  const end = usage.findIndex((line) => !line.startsWith('//'));
  console.log(
    usage
      .slice(0, end)
      .map((line) => line.replace(/^\/\/ ?/, ''))
      .join('\n'),
  );
  process.exit(0);
}

// --table FILE prints the table of an earlier run's JSON again, and measures nothing.
if (args.table) {
  const saved = JSON.parse(readFileSync(args.table, 'utf8')) as { runs: SizeRun[] };
  console.log(formatTable(saved.runs));
  process.exit(0);
}

// Rounds: with --against, of the two stacks; else of each scenario and its reference. A
// profile is of one measurement per scenario.
const rounds = Math.min(Number(args.rounds ?? (args.against ? 6 : args.profile ? 1 : 3)), 30);
// Bounded: at most 30 s a measurement (40 with its warm-up), 30 rounds of that on each side;
// the log says how long a run will take before it starts. Paired rounds are short: many of
// them, each pair close together in time.
const paired = args.against !== undefined || rounds > 1;
const seconds = Math.min(Math.max(Number(args.duration ?? (paired ? 2 : 5)), 1), 30);
const warmupSeconds = Math.min(Math.max(Number(args.warmup ?? (paired ? 0.5 : 1)), 0), 10);
const connections = Math.min(Math.max(Number(args.connections), 1), 64);
if (
  args.against !== undefined &&
  !['scripts/start.ts', 'node_modules'].every((part) => existsSync(path.join(args.against!, part)))
) {
  console.error(
    `bench: --against ${args.against} is no checkout of this project with its dependencies installed (scripts/start.ts, node_modules)`,
  );
  process.exit(2);
}
if (
  args.rounds !== undefined &&
  !(/^[1-9][0-9]*$/.test(args.rounds) && Number(args.rounds) <= 30)
) {
  console.error('bench: --rounds takes a whole number from 1 to 30');
  process.exit(2);
}
if (args.against !== undefined && args.profile) {
  console.error('bench: --against and --profile go separately (a profile is of one stack)');
  process.exit(2);
}
if (args.profile && rounds > 1) {
  console.error('bench: --profile takes one round (a profile per scenario, of one measurement)');
  process.exit(2);
}
const scale = Number(args.scale);
// --against compares the small data unless told otherwise: its rounds take long already.
const sizes = (args.sizes ?? (args.against ? 'small' : 'small,large'))
  .split(',')
  .filter((size) => size === 'small' || size === 'large');
const serverUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
// Runs on one server at the same time need databases of their own: each drops and remakes its.
const databasePrefix = process.env.BENCH_DATABASE_PREFIX ?? 'fs_bench';
if (!/^[a-z_][a-z0-9_]{0,40}$/.test(databasePrefix)) {
  throw new Error(`BENCH_DATABASE_PREFIX must be a plain lower-case name, got ${databasePrefix}`);
}
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const outputDir = path.resolve(import.meta.dirname, '..', '.data', 'bench');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
mkdirSync(outputDir, { recursive: true });

const log = (message: string) => console.error(`[bench] ${message}`);

async function adminQuery<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh database with the demo data, grown for the large size; kept with --reuse. */
async function prepareDatabase(size: string): Promise<string> {
  const name = `${databasePrefix}_${size}`;
  const url = withDatabaseName(serverUrl, name);
  const exists = await adminQuery(`select 1 from pg_database where datname = '${name}'`);
  if (args.reuse && exists.length > 0 && size === 'large') {
    log(`reusing ${name}`);
    return url;
  }
  await adminQuery(`drop database if exists ${name} with (force)`);
  await adminQuery(`create database ${name}`);
  await prepareDemoDatabase(url);
  if (size === 'large') {
    log(`growing ${name} at scale ${scale} (pnpm cli demo grow)`);
    const orm = await openOrm({ url, poolSize: 1 });
    try {
      const grown = await growDemoData(orm.em.fork(), { scale });
      const total = grown.steps.reduce((sum, step) => sum + step.ms, 0);
      log(`grown in ${(total / 1000).toFixed(0)} s: ${JSON.stringify(grown.counts)}`);
    } finally {
      await orm.close();
    }
  }
  return url;
}

async function demoIds(url: string): Promise<DemoIds> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<DemoIds>(
      `select a.id as alice, b.id as bob, c.id as carla, a.home_region_id as musterstadt,
              t.store_id as "storeId", s.chain_id as "chainId",
              (select m.conversation_id from conversation_members m
                where m.user_id in (a.id, b.id, c.id) group by 1 having count(*) = 3
                order by 1 limit 1) as "conversationId",
              (select g.id from region_admins x join regions g on g.id = x.region_id
                where x.user_id = a.id and g.type = 7 order by 1 limit 1) as "workGroup",
              (select min(f.id) from forum_threads f join forum_posts p on p.thread_id = f.id
                where f.region_id = a.home_region_id and f.author_id = a.id) as "forumThreadId",
              1 as "quizId",
              (select min(q.id) from quiz_questions q where q.quiz_id = 1) as "questionId"
         from users a, users b, users c, store_team_memberships t, stores s
        where a.email = 'alice@example.org' and b.email = 'bob@example.org'
          and c.email = 'carla@example.org' and t.user_id = a.id and t.is_manager
          and s.id = t.store_id
        order by t.store_id limit 1`,
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

/** A scenario's name as a file name: `GET /api/users/3/bananas?limit=10` → `GET-api-users-3-bananas-limit-10`. */
function fileNameOf(name: string): string {
  return name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '');
}

/** The OAuth scenarios' inputs on the server at `origin`, its refresh tokens made on demand. */
function oauthContextOn(origin: string, oauth: OAuthInputs, accessToken: string): OAuthContext {
  const refreshTokens: string[] = [];
  // A run that ends with answers in flight loses the rotated tokens they carried: each run
  // of the refresh scenario (once per round) starts from a full pool, filled by the
  // scenario's `prepare`.
  const refillRefreshTokens = async () => {
    const missing = 2 * connections - refreshTokens.length;
    if (missing <= 0) return;
    for (const code of await issueCodes(oauth, missing)) {
      refreshTokens.push((await exchange(origin, oauth, code)).refresh_token);
    }
  };
  return { origin, oauth, codes: [], refreshTokens, refillRefreshTokens, accessToken };
}

/** Logs the demo users in on `stack` and gets alice's remembered consent, codes and tokens. */
async function scenarioContext(
  stack: Child,
  reference: Child & { token: string },
  databaseUrl: string,
): Promise<ScenarioContext> {
  const [alice, orga, kim, dana, carla] = await Promise.all(
    (['alice', 'orga', 'kim', 'dana', 'carla'] as const).map((user) => login(stack.origin, user)),
  );
  const oauth = await rememberConsent(stack.origin);
  const [first] = await issueCodes(oauth, 1);
  const tokens = await exchange(stack.origin, oauth, first!);
  return {
    ...oauthContextOn(stack.origin, oauth, tokens.access_token),
    referenceOrigin: reference.origin,
    referenceToken: reference.token,
    sessions: { alice: alice!, orga: orga!, kim: kim!, dana: dana!, carla: carla! },
    ids: await demoIds(databaseUrl),
  };
}

/**
 * alice's session on the bench peer: codes whose access tokens are JWTs (exchange, refresh), and
 * for userinfo an opaque access token, the only kind the peer answers there.
 */
async function peerContext(peer: Child, alice: number): Promise<OAuthContext> {
  const inputs = await rememberPeerConsent(peer.origin, alice);
  const [code] = await issueCodes(inputs.userinfo, 1);
  const tokens = await exchange(peer.origin, inputs.userinfo, code!);
  return oauthContextOn(peer.origin, inputs.jwt, tokens.access_token);
}

/** The scenarios --only selects (and the references), in the table's order. */
function scenariosOf(context: ScenarioContext): Scenario[] {
  return [
    ...referenceScenarios(context),
    ...readScenarios(context),
    ...writeScenarios(context),
    ...oauthScenarios(context),
  ].filter(
    (scenario) =>
      !only ||
      scenario.name.startsWith('reference:') ||
      only.some((text) => scenario.name.includes(text)),
  );
}

/** One scenario on `server`; single-use codes are issued from `context` just before. */
async function measureOn(
  server: Child,
  context: OAuthContext,
  scenario: Scenario,
  extra: Partial<MeasureOptions> = {},
): Promise<Figures> {
  if (scenario.amount !== undefined) {
    // Single-use codes, issued just before they are spent (they live 10 minutes).
    context.codes.push(...(await issueCodes(context.oauth, Math.ceil(seconds * 800))));
    scenario.amount = context.codes.length;
  }
  return measure(scenario, {
    seconds,
    connections,
    warmupSeconds,
    serverCpuMicros: () => server.cpuMicros(),
    ...extra,
  });
}

/** With --profile: the profile covers the measured seconds alone (no start, log-in or warm-up). */
function profiledMeasurement(
  server: Child,
  profileDir: string,
  scenario: Scenario,
): Partial<MeasureOptions> {
  const profiler = server.profiler;
  if (!profiler) return {};
  return {
    beforeMeasured: () => profiler.start(),
    afterMeasured: async () => {
      mkdirSync(profileDir, { recursive: true });
      const file = path.join(profileDir, `${fileNameOf(scenario.name)}.cpuprofile`);
      writeFileSync(file, JSON.stringify(await profiler.stop()));
    },
  };
}

async function runSize(size: string): Promise<SizeRun> {
  const databaseUrl = await prepareDatabase(size);
  const backends = {
    databaseUrl,
    redisUrl,
    keyPrefix: `bench:${process.pid}:${size}:`,
    profile: args.profile,
  };
  const profileDir = path.join(outputDir, `profile-${stamp}-${size}`);
  const reference = await startReference(backends);
  const stack = await startStack(backends);
  let peer: Child | undefined;
  const figures: Figures[] = [];
  try {
    const context = await scenarioContext(stack, reference, databaseUrl);
    const scenarios = scenariosOf(context);
    // With rounds, each scenario that has a reference is measured in turns with it.
    const pairedReferenceOf = (scenario: Scenario) =>
      rounds > 1 && scenario.reference
        ? scenarios.find((candidate) => candidate.name === `reference: ${scenario.reference}`)
        : undefined;
    // The peer runs only when a scenario it has a twin of is measured (its own child process).
    const twinNames = new Set(peerScenarios(context).map((scenario) => scenario.name));
    const peered =
      args.peer &&
      !args.profile &&
      scenarios.some((scenario) => twinNames.has(peerNameOf(scenario.name)));
    // The servers of the other sides (ours: `server` below, the stack but for the reference rows).
    const servers: Record<string, Child> = { reference };
    const contexts: Record<string, OAuthContext> = { ours: context, reference: context };
    let twins: Scenario[] = [];
    if (peered) {
      peer = await startPeer(backends);
      servers.peer = peer;
      contexts.peer = await peerContext(peer, context.ids.alice);
      twins = peerScenarios(contexts.peer);
    }
    const twinOf = (scenario: Scenario) =>
      twins.find((twin) => twin.name === peerNameOf(scenario.name));
    const measurements = scenarios.reduce((total, scenario) => {
      const sides = 1 + (pairedReferenceOf(scenario) ? 1 : 0) + (twinOf(scenario) ? 1 : 0);
      return total + (pairedReferenceOf(scenario) ? rounds : 1) * sides;
    }, 0);
    log(
      `${size}: ${scenarios.length} scenarios, ${rounds > 1 ? `${rounds} rounds beside their references${peered ? ' (and the peer)' : ''}, ` : ''}` +
        `${seconds} s each at ${connections} connections ` +
        `(about ${Math.ceil((measurements * (seconds + warmupSeconds)) / 60)} min)`,
    );
    /** The scenario's row, and its peer twin's where it has one. */
    const measureScenario = async (scenario: Scenario): Promise<Figures[]> => {
      const server = scenario.name.startsWith('reference:') ? reference : stack;
      const referenceScenario = pairedReferenceOf(scenario);
      const twin = twinOf(scenario);
      if (!referenceScenario && !twin) {
        return [
          await measureOn(
            server,
            context,
            scenario,
            profiledMeasurement(server, profileDir, scenario),
          ),
        ];
      }
      // In turns: the scenario, its reference, its twin on the peer (one round without rounds).
      const sides: Record<string, Scenario> = {
        ours: scenario,
        ...(referenceScenario ? { reference: referenceScenario } : {}),
        ...(twin ? { peer: twin } : {}),
      };
      const measured = await measureInTurns(sides, referenceScenario ? rounds : 1, (each, side) =>
        measureOn(side === 'ours' ? server : servers[side]!, contexts[side]!, each),
      );
      const against = (side: string, other: string) =>
        measured.map((round) => ({ ours: round[side]!, theirs: round[other]! }));
      const merged = (side: string) =>
        referenceScenario
          ? mergeReferenceRounds({ name: sides[side]!.name, rounds: against(side, 'reference') })
          : measured[0]![side]!;
      if (!twin) return [merged('ours')];
      return [{ ...merged('ours'), peer: peerShares(against('ours', 'peer')) }, merged('peer')];
    };
    for (const scenario of scenarios) {
      for (const result of await measureScenario(scenario)) {
        figures.push(result);
        const share = result.shares?.cpu
          ? `, ${Math.round(result.shares.cpu.median * 100)} % of its reference's CPU`
          : '';
        const overPeer = result.peer
          ? `; ours ÷ peer: req/s ${result.peer.rate?.median.toFixed(2) ?? '–'}, ` +
            `CPU/req ${result.peer.cpu?.median.toFixed(2) ?? '–'}`
          : '';
        if (result.shares?.referenceErrors) {
          log(
            `${size} ${result.name}: its reference failed ${result.shares.referenceErrors} times`,
          );
        }
        log(
          `${size} ${result.name}: ${result.requestsPerSecond} req/s, p50 ${result.p50} ms, ` +
            `p99 ${result.p99} ms, errors ${result.errors}, ${result.cpuMicrosPerRequest ?? '–'} µs CPU/req${share}${overPeer}`,
        );
      }
    }
  } finally {
    await stack.stop();
    await reference.stop();
    await peer?.stop();
  }
  return { size, figures };
}

/** --against: both checkouts' stacks side by side, every scenario paired round by round. */
async function compareSize(size: string, against: string) {
  const databaseUrl = await prepareDatabase(size);
  const backends = { databaseUrl, redisUrl, keyPrefix: `bench:${process.pid}:${size}:` };
  const started: Child[] = [];
  // Each child once it runs, so that a later one that fails to start leaves none behind.
  const start = async <T extends Child>(starting: Promise<T>): Promise<T> => {
    const child = await starting;
    started.push(child);
    return child;
  };
  try {
    const reference = await start(startReference(backends));
    const ours = await start(startStack(backends));
    const theirs = await start(
      startStack({
        ...backends,
        keyPrefix: `bench:${process.pid}:${size}:against:`,
        checkout: against,
      }),
    );
    const contexts = {
      ours: await scenarioContext(ours, reference, databaseUrl),
      theirs: await scenarioContext(theirs, reference, databaseUrl),
    };
    const servers = { ours, theirs };
    const named = (context: ScenarioContext) =>
      scenariosOf(context).filter((scenario) => !scenario.name.startsWith('reference:'));
    const theirScenarios = named(contexts.theirs);
    const pairs = named(contexts.ours).map((scenario, index) => {
      const twin = theirScenarios[index];
      // Both lists come from this checkout's scenarios: the same names in the same order.
      if (twin?.name !== scenario.name) throw new Error(`no twin for ${scenario.name}`);
      return { ours: scenario, theirs: twin };
    });
    const minutes = (pairs.length * rounds * 2 * (seconds + warmupSeconds)) / 60;
    log(
      `${size}: ${pairs.length} scenarios, ${rounds} paired rounds of ${seconds} s each ` +
        `(about ${Math.ceil(minutes)} min)`,
    );
    const comparisons = await comparePaired(pairs, rounds, async (scenario, side) => {
      const result = await measureOn(servers[side], contexts[side], scenario);
      log(`${size} ${side} ${result.name}: ${result.cpuMicrosPerRequest ?? '–'} µs CPU/req`);
      return result;
    });
    return { size, comparisons, summaries: comparisons.map(summarize) };
  } finally {
    await Promise.all(started.map((child) => child.stop()));
  }
}

const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? '',
  node: process.version,
};

if (args.against !== undefined) {
  const compared = [];
  for (const size of sizes) compared.push(await compareSize(size, args.against));
  console.log(
    `\nHere: ${path.resolve(import.meta.dirname, '..')}; there: ${path.resolve(args.against)}. ` +
      `${seconds} s per round (after ${warmupSeconds} s of warm-up), ${connections} connections.\n`,
  );
  for (const { size, summaries } of compared) {
    console.log(`${formatComparison(size, rounds, summaries)}\n`);
  }
  const jsonPath = args.json ?? path.join(outputDir, `compare-${stamp}.json`);
  writeFileSync(
    jsonPath,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        against: path.resolve(args.against),
        rounds,
        seconds,
        connections,
        machine,
        compared,
      },
      null,
      2,
    ),
  );
  console.log(`JSON: ${jsonPath}`);
  process.exit(0);
}

const runs: SizeRun[] = [];
for (const size of sizes) runs.push(await runSize(size));

const loadAverage = os.loadavg().map((load) => Number(load.toFixed(2)));
console.log(
  `\n${seconds} s per measurement (after ${warmupSeconds} s of warm-up), ${connections} connections, ` +
    `loopback; ${machine.cpus} CPUs, load average ${loadAverage.join(' ')}` +
    (rounds > 1
      ? `. Each scenario ${rounds} rounds beside its reference: its figures are the medians of ` +
        `its rounds (errors summed), % ref and cpu % ref the medians of the rounds' shares (the ` +
        `four bare references, which have none: one measurement each)`
      : '') +
    '\n',
);
console.log(formatTable(runs));
console.log(
  `\nReferences: ${Object.entries(REFERENCES)
    .map(([name, what]) => `${name} = ${what}`)
    .join('; ')}.`,
);
if (runs.some((run) => run.figures.some((figures) => figures.peer))) {
  console.log(
    'Peer: node-oidc-provider doing the same work (docs/benchmarks.md §1.1), measured in the ' +
      "same rounds; req/s ÷ peer and cpu ÷ peer are ours over the peer's, the median of the " +
      'rounds with the lowest and highest (req/s above 1 and CPU below 1: ours ahead).',
  );
}
const jsonPath = args.json ?? path.join(outputDir, `bench-${stamp}.json`);
writeFileSync(
  jsonPath,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      seconds,
      rounds,
      connections,
      scale,
      machine: { ...machine, loadAverage },
      runs,
    },
    null,
    2,
  ),
);
console.log(`JSON: ${jsonPath}`);
