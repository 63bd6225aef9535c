import fc from 'fast-check';
import { changedTables, type DatabaseFingerprint } from './database-fingerprint.ts';

/** Runs per operation: enough to reach every branch of the generators, bounded for CI. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/** FUZZ_SEED replays a run that failed (its seed is in the failure). */
// CI replays one fixed seed, so that a landing is not decided by chance; elsewhere every run
// explores new inputs.
export const FUZZ_SEED: { seed?: number } = process.env.FUZZ_SEED
  ? { seed: Number(process.env.FUZZ_SEED) }
  : process.env.CI
    ? { seed: 20261125 }
    : {};

/** One generated request, ready to go: signed in and encoded, not yet sent. */
export interface FuzzRequest {
  /** How a failure names it: method, URL, caller. */
  label: string;
  /** A write must leave every table as it was when it is refused. */
  isWrite: boolean;
  send(): Promise<{ statusCode: number; body: string }>;
}

export interface FuzzPlan<Operation, Generated> {
  operations: readonly Operation[];
  /** How a failure of the harness itself names the operation. */
  nameOf(operation: Operation): string;
  requestOf(operation: Operation): fc.Arbitrary<Generated>;
  /** Builds the request of a generated value (signing in happens here, before the fingerprint). */
  prepare(operation: Operation, generated: Generated): Promise<FuzzRequest>;
  fingerprint: DatabaseFingerprint;
}

/**
 * Sends FUZZ_RUNS generated requests to every operation, and collects what went wrong: an answer
 * of 5xx, or a write refused with 4xx that changed a table anyway. `sent` counts the requests
 * that held, so that a caller can show none was skipped.
 */
export async function fuzzOperations<Operation, Generated>(
  plan: FuzzPlan<Operation, Generated>,
): Promise<{ failures: string[]; sent: number }> {
  const failures: string[] = [];
  let sent = 0;
  for (const operation of plan.operations) {
    const failuresBefore = failures.length;
    const details = await fc.check(
      fc.asyncProperty(plan.requestOf(operation), async (generated) => {
        const request = await plan.prepare(operation, generated);
        const before = request.isWrite ? await plan.fingerprint.take() : undefined;
        const response = await request.send();
        if (response.statusCode >= 500) {
          failures.push(`${request.label} → ${response.statusCode} ${response.body.slice(0, 200)}`);
          return false;
        }
        if (before && response.statusCode >= 400) {
          const changed = changedTables(before, await plan.fingerprint.take());
          if (changed.length) {
            failures.push(
              `${request.label} → ${response.statusCode} but changed ${changed.join(', ')}`,
            );
            return false;
          }
        }
        sent += 1;
        return true;
      }),
      { numRuns: FUZZ_RUNS, endOnFailure: true, ...FUZZ_SEED },
    );
    // A property that threw (a generator or the harness itself) is a failure too, not a skip.
    if (details.failed && failures.length === failuresBefore) {
      const error = details.errorInstance as Error;
      failures.push(`${plan.nameOf(operation)}: ${String(error.stack)} seed ${details.seed}`);
    }
  }
  return { failures, sent };
}
