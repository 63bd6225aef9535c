// The records the services share through the key-value store outlive the release that wrote
// them: during a rolling update the previous and the next release read what this one writes
// (docs/operations.md §1.2). Each carries its format's version in `v`, so that a later release
// can tell the shapes apart. A release reads the format before its own (0.1.0 wrote records
// without `v`: format 0) and writes one the previous release reads: fields are only added.

/** One kind of record and the format version this release writes. */
export interface RecordFormat {
  readonly name: string;
  readonly version: number;
}

/** The formats of this release, one per kind of record; docs/operations.md §1.2 lists them. */
export const RecordFormats = {
  session: { name: 'session', version: 1 },
  endedSession: { name: 'ended session', version: 1 },
  authorizationRequest: { name: 'authorization request', version: 1 },
  authorizationCode: { name: 'authorization code', version: 1 },
  codeRedemption: { name: 'code redemption', version: 1 },
  pushedRequest: { name: 'pushed authorization request', version: 1 },
  deviceAuthorization: { name: 'device authorization', version: 1 },
  consent: { name: 'remembered consent', version: 1 },
  refreshFamily: { name: 'refresh-token family', version: 1 },
  rotatedGeneration: { name: 'rotated refresh generation', version: 1 },
  refreshToken: { name: 'refresh token', version: 1 },
  searchIndex: { name: 'kept search index', version: 1 },
} as const satisfies Record<string, RecordFormat>;

/** The record as stored: its fields and the version of its format. */
export function writeRecord(format: RecordFormat, record: object): string {
  return JSON.stringify({ ...record, v: format.version });
}

/**
 * The record's fields without `v`, from any format this release reads. Unknown fields are kept:
 * a record of the next release has fields this one ignores, and writes back unchanged where it
 * rewrites a record it read.
 */
export function readRecord<T>(format: RecordFormat, raw: string): T {
  const parsed: unknown = JSON.parse(raw);
  // Some records of format 0 were not objects (an ended session's user id alone).
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return parsed as T;
  const { v, ...record } = parsed as { v?: unknown } & Record<string, unknown>;
  if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0)) {
    throw new TypeError(`a ${format.name} record with the format version ${JSON.stringify(v)}`);
  }
  return record as T;
}
