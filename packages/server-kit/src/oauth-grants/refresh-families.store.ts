import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import type { KeyValueStore } from '../kv/index.ts';
import { AccessTokenDenyList } from './access-token-deny-list.store.ts';
import {
  clientGrantCutoffKey,
  issuedBeforeCutoff,
  parseCutoff,
} from './client-grant-cutoffs.store.ts';
import type { RevocationLedger } from './revocation-ledger.store.ts';
import { readRecord, RecordFormats, writeRecord } from '../kv/index.ts';

/**
 * One grant: what a redeemed authorization code started. Every token issued from it, the refresh
 * tokens of each rotation and the access tokens, belongs to the family, so that reuse of the code
 * or of an old refresh token can revoke all of them (RFC 6749 4.1.2, RFC 9700 4.14.2).
 */
export interface RefreshFamily {
  id: string;
  userId: number;
  clientId: string;
  /** The scopes granted at authorization; a refresh may narrow them, never widen (RFC 6749 6). */
  scopes: string[];
  /** OIDC auth_time (seconds), repeated in every refreshed ID token (OIDC Core 12.2). */
  authTime: number;
  /** Milliseconds since the epoch (this server's clock). */
  createdAt: number;
  /**
   * PostgreSQL's clock (ms) when the user was read for this grant, just before the family began:
   * families not younger than the user's tokens_valid_after, set by the same clock, are dead.
   */
  databaseCreatedAt: number;
  /**
   * When the authorization code that began the family was issued (ms, this server's clock):
   * a sign-out ends the families of codes issued up to it, whenever they were exchanged.
   * Absent from families stored before it was kept (and those made without a code), which
   * count from `createdAt`.
   */
  codeIssuedAt?: number;
  /**
   * The login session whose authorization began the family (`sessionSid`): every ID token of the
   * family names it, and so does the logout token when a sign-out ends the family. Absent from
   * families stored before it was kept, whose tokens carry no sid.
   */
  sid?: string;
  /**
   * RFC 9449 5: the thumbprint of the DPoP key a public client's refresh tokens are bound to.
   * Absent from families begun without DPoP, and from confidential clients' families.
   */
  jkt?: string;
}

/**
 * What an attempt to use a refresh token found (see `startRotation`). `won`: this caller holds the
 * token's rotation lease and must finish (`completeRotation`) or give it back
 * (`abandonRotation`).
 */
export type RotationStart =
  { use: 'won'; attempt: string } | { use: 'concurrent' } | { use: 'replayed' };

/** A refresh token's generation key holds this while the token may be used. */
const LIVE = '1';

interface RotatedGeneration {
  /** When the rotation that used this token up completed (this server's clock, ms). */
  rotatedAt: number;
}

/**
 * How long one rotation may hold a refresh token. A rotation that fails gives the lease back at
 * once; one whose server died, or could not reach the store to give it back, holds it this long,
 * and uses of the token meanwhile are refused as concurrent. Far above a rotation's normal
 * duration (milliseconds), so that a slow one is not overtaken by a second.
 */
export const ROTATION_LEASE_MS = 15_000;

const familyKey = (id: string) => `oauth:family:${id}`;
const revokedKey = (id: string) => `oauth:family:${id}:revoked`;
const accessIndexKey = (id: string) => `oauth:family:${id}:access`;
const liveRefreshKey = (id: string, jti: string) => `oauth:family:${id}:refresh:${jti}`;
const rotationLeaseKey = (id: string, jti: string) => `oauth:family:${id}:rotating:${jti}`;
const grantIndexKey = (userId: number, clientId: string) => `oauth:grant:${userId}:${clientId}`;
/** The clients the user holds a grant with, whether the consent was remembered or not. */
const userGrantsKey = (userId: number) => `oauth:grants:${userId}`;

/** What the user allowed a client, over all the grant's live families (connected apps). */
export interface UserGrant {
  clientId: string;
  /** Every scope of a live family: what the client can still obtain. */
  scopes: string[];
  /** When the oldest live family began (ms). */
  grantedAt: number;
  /** When a code exchange or refresh last issued a refresh token of the grant (ms). */
  lastUsedAt: number;
}

export const newTokenId = () => randomBytes(16).toString('base64url');

/** A token named before it is signed or stored. */
export interface IssuedToken {
  jti: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * Families in the key-value store. A refresh token is valid while its per-generation key says so;
 * using it leases the token (atomic: of concurrent uses exactly one wins), issues the next
 * generation and then marks the token rotated. Revocation leaves a tombstone that outlives every token of the family, and puts the
 * family's unexpired access tokens on the deny list.
 */
export class RefreshFamilyStore {
  readonly #store: KeyValueStore;
  readonly #denyList: AccessTokenDenyList;
  readonly #ledger: RevocationLedger;
  readonly #refreshTtlMs: number;
  readonly #now: () => number;

  constructor(options: {
    store: KeyValueStore;
    denyList: AccessTokenDenyList;
    /** Keeps tombstones and the denied access tokens beyond a restart of the store. */
    ledger: RevocationLedger;
    refreshTtlMs: number;
    now?: () => number;
  }) {
    this.#store = options.store;
    this.#denyList = options.denyList;
    this.#ledger = options.ledger;
    this.#refreshTtlMs = options.refreshTtlMs;
    this.#now = options.now ?? Date.now;
  }

  /**
   * A family beginning now under an id the caller chose (code redemption names it before it
   * wins), stored with its first tokens by `recordIssue`.
   */
  begin(family: Omit<RefreshFamily, 'createdAt'>): RefreshFamily {
    return { ...family, createdAt: this.#now() };
  }

  /** Begins and stores a family without tokens (administration and tests). */
  async create(family: Omit<RefreshFamily, 'createdAt'>): Promise<RefreshFamily> {
    const record = this.begin(family);
    await Promise.all([this.#sendRecord(record), this.#index(record, this.#now())]);
    return record;
  }

  #sendRecord(family: RefreshFamily): Promise<void> {
    return this.#store.set(
      familyKey(family.id),
      writeRecord(RecordFormats.refreshFamily, family),
      this.#refreshTtlMs,
    );
  }

  /**
   * Lists the family under the user's grant with the client, and the client under the user's
   * grants, each scored by when the family's newest refresh token expires: its last use is that
   * minus the refresh lifetime (`grantsOf`), and nothing is listed longer than a token lives.
   */
  async #index(family: RefreshFamily, usedAt: number): Promise<void> {
    const expiresAt = usedAt + this.#refreshTtlMs;
    const options = { ttlMs: this.#refreshTtlMs, pruneBelow: usedAt };
    await Promise.all([
      this.#store.addToIndex(
        grantIndexKey(family.userId, family.clientId),
        family.id,
        expiresAt,
        options,
      ),
      this.#store.addToIndex(userGrantsKey(family.userId), family.clientId, expiresAt, options),
    ]);
  }

  /**
   * The family of `clientId`, or null when it expired or was revoked, or began before the
   * client's grants were ended (the client was deactivated or deleted since, ClientGrantCutoffs).
   * One round trip: the family, its tombstone and the client's cutoff. A family of another
   * client is returned as it is, for the caller to refuse.
   */
  async find(id: string, clientId: string): Promise<RefreshFamily | null> {
    const [record, revoked, cutoff] = await this.#store.getMany(
      familyKey(id),
      revokedKey(id),
      clientGrantCutoffKey(clientId),
    );
    if (record == null || revoked != null) return null;
    const family = readRecord<RefreshFamily>(RecordFormats.refreshFamily, record);
    if (family.clientId !== clientId) return family;
    return issuedBeforeCutoff(family.createdAt, parseCutoff(cutoff ?? null)) ? null : family;
  }

  async isRevoked(id: string): Promise<boolean> {
    return (await this.#store.get(revokedKey(id))) !== null;
  }

  /**
   * Remembers an access token of the family so that revoking the family can deny it. Checks the
   * tombstone afterwards: a revocation that ran between issue and record still catches the token.
   * False (and the token denied) when the family is revoked.
   */
  async recordAccessToken(id: string, jti: string, expiresAt: number): Promise<boolean> {
    return this.#recordAccessTokenThenCheck(id, { jti, expiresAt });
  }

  // Both commands are sent before the first await, the tombstone read after the record.
  async #recordAccessTokenThenCheck(id: string, token: IssuedToken): Promise<boolean> {
    const [, tombstone] = await Promise.all([
      this.#store.addToIndex(accessIndexKey(id), token.jti, token.expiresAt, {
        ttlMs: Math.max(token.expiresAt - this.#now(), 1),
        pruneBelow: this.#now(),
      }),
      this.#store.get(revokedKey(id)),
    ]);
    if (tombstone === null) return true;
    await this.#denyList.deny(token.jti, token.expiresAt);
    return false;
  }

  /** Names a new generation: the one refresh token of the family that may be used next. */
  planRefreshToken(): IssuedToken {
    return { jti: newTokenId(), expiresAt: this.#now() + this.#refreshTtlMs };
  }

  /** Stores a new generation of the family (see `recordIssue`, which token responses use). */
  async issueRefreshToken(family: RefreshFamily): Promise<IssuedToken> {
    const refreshToken = this.planRefreshToken();
    await Promise.all(this.#sendGeneration(family, refreshToken, { begins: false }));
    return refreshToken;
  }

  #sendGeneration(
    family: RefreshFamily,
    refreshToken: IssuedToken,
    { begins }: { begins: boolean },
  ): Promise<unknown>[] {
    return [
      this.#store.set(liveRefreshKey(family.id, refreshToken.jti), LIVE, this.#refreshTtlMs),
      // The family lives as long as its newest refresh token (a beginning one was just written).
      ...(begins ? [] : [this.#store.expire(familyKey(family.id), this.#refreshTtlMs)]),
      this.#index(family, refreshToken.expiresAt - this.#refreshTtlMs),
    ];
  }

  /**
   * Stores what one token response issued, in one round trip:
   * - the family's record, when it begins here (a code exchange);
   * - the refresh token's generation, and the family's place in the user's grant index;
   * - the access token in the family's index;
   * - last, a read of the tombstone.
   * A revocation that ran before that read is seen: the answer is false and the access token is
   * denied. A revocation that runs after it finds everything written here, and revokes it.
   *
   * Every command is sent before this first awaits, in that order: a read the caller sends
   * right after calling this runs after these writes (KeyValueStore's ordering).
   */
  async recordIssue(issue: {
    family: RefreshFamily;
    begins: boolean;
    refreshToken: IssuedToken | null;
    accessToken: IssuedToken;
  }): Promise<boolean> {
    const { family, begins, refreshToken } = issue;
    const writes: Promise<unknown>[] = [];
    if (begins) writes.push(this.#sendRecord(family));
    if (refreshToken) writes.push(...this.#sendGeneration(family, refreshToken, { begins }));
    else if (begins) writes.push(this.#index(family, family.createdAt));
    const [, live] = await Promise.all([
      Promise.all(writes),
      this.#recordAccessTokenThenCheck(family.id, issue.accessToken),
    ]);
    return live;
  }

  /**
   * RFC 9449 5: binds a public client's family, begun without DPoP, to the key of the first
   * proof that comes with one of its refreshes. Called under the rotation lease, so no other
   * rotation of the family runs meanwhile.
   */
  async bindToKey(family: RefreshFamily, jkt: string): Promise<RefreshFamily> {
    const bound: RefreshFamily = { ...family, jkt };
    await this.#store.setIfPresent(
      familyKey(family.id),
      writeRecord(RecordFormats.refreshFamily, bound),
      this.#refreshTtlMs,
    );
    return bound;
  }

  async isRefreshTokenLive(id: string, jti: string): Promise<boolean> {
    return (await this.#store.get(liveRefreshKey(id, jti))) === LIVE && !(await this.isRevoked(id));
  }

  /**
   * Starts using a refresh token up. The token stays valid until `completeRotation` marks it
   * rotated. That is one write, made after everything the rotation depends on has succeeded
   * (the database, signing, the next generation). So a rotation that fails on the way leaves
   * the token usable: the client's retry works and the grant is not lost. Meanwhile a lease
   * keeps other uses of the same token out; it is atomic, so of concurrent uses exactly one
   * wins.
   *
   * `replayed`: the token had been rotated before this request arrived, the reuse RFC 9700
   * 4.14.2 asks to punish by revoking the family. `concurrent`: another request with the same
   * token holds the lease, or completed its rotation after this request arrived (a client racing
   * itself, two tabs); refused but not taken for theft. A token whose generation is unknown
   * (expired) is refused the same way.
   */
  async startRotation(id: string, jti: string, requestStartedAt: number): Promise<RotationStart> {
    const attempt = newTokenId();
    // One round trip; the generation is read after the lease is taken (KeyValueStore's order).
    const [won, generation] = await Promise.all([
      this.#store.setIfAbsent(rotationLeaseKey(id, jti), attempt, ROTATION_LEASE_MS),
      this.#store.get(liveRefreshKey(id, jti)),
    ]);
    if (won && generation === LIVE) return { use: 'won', attempt };
    // Nothing to rotate: the lease taken for nothing would only delay the answer to the next use.
    if (won) await this.#store.delete(rotationLeaseKey(id, jti));
    if (generation === null || generation === LIVE) return { use: 'concurrent' };
    const { rotatedAt } = readRecord<RotatedGeneration>(
      RecordFormats.rotatedGeneration,
      generation,
    );
    return rotatedAt > requestStartedAt ? { use: 'concurrent' } : { use: 'replayed' };
  }

  /**
   * Marks `jti` rotated, the one write that ends it: from now on presenting it is a replay. False
   * (nothing written) when this attempt's lease ran out and another use of the token holds it now.
   * The lease is left to run out: meanwhile the token's uses find it rotated all the same.
   */
  async completeRotation(id: string, jti: string, attempt: string): Promise<boolean> {
    const rotated: RotatedGeneration = { rotatedAt: this.#now() };
    // One atomic step: the lease read and the mark cannot be split by another use of the token.
    return this.#store.setUnlessLeasedToOther(
      liveRefreshKey(id, jti),
      writeRecord(RecordFormats.rotatedGeneration, rotated),
      this.#refreshTtlMs,
      { key: rotationLeaseKey(id, jti), holder: attempt },
    );
  }

  /**
   * Gives the lease of a failed rotation back, so that the client's retry with the same token
   * works at once. The next generation the attempt may have stored stays behind unused: its token
   * was never sent.
   */
  async abandonRotation(id: string, jti: string, attempt: string): Promise<void> {
    if ((await this.#store.get(rotationLeaseKey(id, jti))) === attempt) {
      await this.#store.delete(rotationLeaseKey(id, jti));
    }
  }

  /** Kills the family and every token issued from it; idempotent, also for unknown ids. */
  async revoke(id: string, owner?: Pick<RefreshFamily, 'userId' | 'clientId'>): Promise<void> {
    // The tombstone first, so that whatever runs concurrently sees the family as dead.
    const tombstone = {
      key: revokedKey(id),
      value: '1',
      expiresAt: this.#now() + this.#refreshTtlMs,
    };
    await this.#store.set(tombstone.key, tombstone.value, this.#refreshTtlMs);
    const [record, accessTokens] = await Promise.all([
      this.#store.get(familyKey(id)),
      this.#store.indexMembers(accessIndexKey(id), this.#now()),
    ]);
    // One write to PostgreSQL for the tombstone and every access token it denies.
    await this.#ledger.write([
      tombstone,
      ...accessTokens.map(({ member, score }) => AccessTokenDenyList.entry(member, score)),
    ]);
    // The record names the user's grant index; `owner` does when a concurrent revocation has
    // deleted the record already (a code's second use racing its first).
    const family =
      record === null ? owner : readRecord<RefreshFamily>(RecordFormats.refreshFamily, record);
    if (family !== undefined) {
      await this.#store.removeFromIndex(grantIndexKey(family.userId, family.clientId), id);
    }
    await this.#store.delete(familyKey(id), accessIndexKey(id));
  }

  /** The ids of the user's live families with the client (connected apps, grant revocation). */
  async familiesOf(userId: number, clientId: string): Promise<string[]> {
    const members = await this.#store.indexMembers(grantIndexKey(userId, clientId), this.#now());
    return members.map(({ member }) => member);
  }

  /**
   * Of the user's live families with the client, those begun up to `upTo` (ms) and those begun
   * later, in one more round trip: begun when their code was issued, so that a code of a session
   * that has ended, exchanged since, counts as before. A family whose record is gone counts as
   * begun before.
   */
  async familiesBegunBy(
    userId: number,
    clientId: string,
    upTo: number,
  ): Promise<{ before: string[]; after: string[]; records: Map<string, RefreshFamily> }> {
    const ids = await this.familiesOf(userId, clientId);
    const records = ids.length === 0 ? [] : await this.#store.getMany(...ids.map(familyKey));
    const before: string[] = [];
    const after: string[] = [];
    // The records read for it, for the caller that needs more of them (a sign-out: their sid).
    const found = new Map<string, RefreshFamily>();
    ids.forEach((id, i) => {
      const record = records[i];
      const family =
        record == null ? null : readRecord<RefreshFamily>(RecordFormats.refreshFamily, record);
      if (family) found.set(id, family);
      const begunAt = family ? (family.codeIssuedAt ?? family.createdAt) : 0;
      (begunAt <= upTo ? before : after).push(id);
    });
    return { before, after, records: found };
  }

  /**
   * Every grant the user holds, remembered consent or not (docs/oauth.md §6.2), most recently
   * used first. A grant is listed while one of its families lives: not expired, not revoked, not
   * begun before its client's grants were ended.
   */
  async grantsOf(userId: number): Promise<UserGrant[]> {
    const now = this.#now();
    const clients = await this.#store.indexMembers(userGrantsKey(userId), now);
    const grants = await Promise.all(
      clients.map(({ member }) => this.#grantWith(userId, member, now)),
    );
    return grants
      .filter((grant): grant is UserGrant => grant !== null)
      .sort((a, b) => b.lastUsedAt - a.lastUsedAt);
  }

  async #grantWith(userId: number, clientId: string, now: number): Promise<UserGrant | null> {
    const indexed = await this.#store.indexMembers(grantIndexKey(userId, clientId), now);
    if (indexed.length === 0) return null;
    // One round trip: the client's cutoff, then each family's record and tombstone.
    const [cutoff, ...values] = await this.#store.getMany(
      clientGrantCutoffKey(clientId),
      ...indexed.flatMap(({ member }) => [familyKey(member), revokedKey(member)]),
    );
    const live = indexed.flatMap(({ score }, i) => {
      const [record, revoked] = [values[2 * i], values[2 * i + 1]];
      if (record == null || revoked != null) return [];
      const family = readRecord<RefreshFamily>(RecordFormats.refreshFamily, record);
      if (issuedBeforeCutoff(family.createdAt, parseCutoff(cutoff ?? null))) return [];
      return [{ family, lastUsedAt: score - this.#refreshTtlMs }];
    });
    if (live.length === 0) return null;
    return {
      clientId,
      scopes: [...new Set(live.flatMap(({ family }) => family.scopes))],
      grantedAt: Math.min(...live.map(({ family }) => family.createdAt)),
      lastUsedAt: Math.max(...live.map(({ lastUsedAt }) => lastUsedAt)),
    };
  }

  /** Takes the client off the user's grants, once its families are revoked (`grantsOf`). */
  async forgetGrant(userId: number, clientId: string): Promise<void> {
    await this.#store.removeFromIndex(userGrantsKey(userId), clientId);
  }
}

// The refresh token a client holds: it names a family and one of its generations, sealed so that
// only this server reads it. The family's state above decides whether it is still valid.

/** What a refresh token carries; only this server can read it (docs/spec.md §5.2 rule 7). */
export interface RefreshTokenClaims {
  /** The family (grant) it belongs to. */
  familyId: string;
  /** This generation's id; valid while the family's key for it exists. */
  jti: string;
  clientId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

// A key of its own, derived from the key-encryption key: the signing keys' encryption at rest
// and the refresh tokens never share key material (HKDF's info separates the uses).
const KEY_INFO = 'foodshare oauth refresh-token A256GCM v1';

/**
 * Whether a token has the form of a refresh token: a compact JWE has five parts, a compact JWS
 * (the access and ID tokens) three. Endpoints that take either kind tell them apart by it, which
 * makes `token_type_hint` unneeded (RFC 7009 2.1 and RFC 7662 2.1 allow ignoring it).
 */
export const isCompactJwe = (token: string) => token.split('.').length === 5;

// The one protected header this codec writes; as the JWE's additional authenticated data it is
// the ASCII of its base64url form (RFC 7516 5.1 step 14).
const HEADER = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM' })).toString('base64url');
const HEADER_AAD = Buffer.from(HEADER, 'ascii');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Refresh tokens as compact JWEs (`dir`, A256GCM): opaque to clients, authenticated, so a token
 * that decrypts names a family and a generation this server issued. Validity is decided by the
 * family state, not by the token alone.
 *
 * Sealed and opened with node:crypto's AES-GCM in place of jose's WebCrypto path: the token
 * endpoint's profile showed jose importing the key and running an asynchronous WebCrypto job
 * for every seal and open, several times the cost of the cipher itself. The tokens are the
 * same RFC 7516 compact JWEs, byte for byte in form: either implementation opens the other's.
 */
export class RefreshTokenCodec {
  // A KeyObject, made once: given bytes, every cipher and decipher imports the key anew
  // (docs/benchmarks.md §2.1).
  readonly #key: KeyObject;
  readonly #now: () => number;

  constructor(keyEncryptionKey: Uint8Array, now: () => number = Date.now) {
    this.#key = createSecretKey(
      Buffer.from(hkdfSync('sha256', keyEncryptionKey, new Uint8Array(0), KEY_INFO, 32)),
    );
    this.#now = now;
  }

  seal(claims: RefreshTokenClaims): Promise<string> {
    // The claims in the order jose wrote them: fid, cid, jti, iat, exp; then the format
    // (docs/operations.md §1.2), which readers of format 0 ignore.
    const payload = JSON.stringify({
      fid: claims.familyId,
      cid: claims.clientId,
      jti: claims.jti,
      iat: Math.floor(this.#now() / 1000),
      exp: claims.expiresAt,
      v: RecordFormats.refreshToken.version,
    });
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(HEADER_AAD);
    const ciphertext = Buffer.concat([cipher.update(payload, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return Promise.resolve(
      `${HEADER}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${tag.toString('base64url')}`,
    );
  }

  /** The claims of a refresh token this server issued and that has not expired, or null. */
  open(token: string): Promise<RefreshTokenClaims | null> {
    return Promise.resolve(this.openNow(token));
  }

  /** `open` without the promise: for a caller that must send its next read before it awaits. */
  openNow(token: string): RefreshTokenClaims | null {
    const parts = token.split('.');
    if (parts.length !== 5 || !parts.every((part) => BASE64URL.test(part))) return null;
    const [header, encryptedKey, ivPart, ciphertextPart, tagPart] = parts as [
      string,
      string,
      string,
      string,
      string,
    ];
    // `dir`: no encrypted key (RFC 7518 4.5). Only the algorithms of this codec, and nothing a
    // reader would have to understand (crit) or inflate (zip), as jose's options demanded.
    const protectedHeader = decodeJson(header);
    if (encryptedKey !== '' || !protectedHeader) return null;
    if (protectedHeader.alg !== 'dir' || protectedHeader.enc !== 'A256GCM') return null;
    if (protectedHeader.crit !== undefined || protectedHeader.zip !== undefined) return null;
    const iv = Buffer.from(ivPart, 'base64url');
    const tag = Buffer.from(tagPart, 'base64url');
    // A shorter tag would be accepted by GCM and authenticate less: exactly 128 bits.
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
    let plaintext: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, iv, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(header, 'ascii'));
      decipher.setAuthTag(tag);
      plaintext = Buffer.concat([
        decipher.update(Buffer.from(ciphertextPart, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(plaintext);
    } catch {
      return null;
    }
    return this.#claims(payload);
  }

  /** The JWT checks jose made (RFC 7519 4.1): exp and jti present, exp not passed, nbf reached. */
  #claims(payload: unknown): RefreshTokenClaims | null {
    if (!isObject(payload)) return null;
    const { fid, cid, jti, exp, iat, nbf } = payload;
    const now = Math.floor(this.#now() / 1000);
    if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= now) return null;
    if (iat !== undefined && typeof iat !== 'number') return null;
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return null;
    if (typeof fid !== 'string' || typeof cid !== 'string' || typeof jti !== 'string') {
      return null;
    }
    return { familyId: fid, clientId: cid, jti, expiresAt: exp };
  }
}
