// node-oidc-provider's storage for the bench peer (peer-server.ts), over ioredis: what the
// library's own Redis adapter example does, key for key, so that the peer does the Redis work
// a deployment of it would. Each model's records are `<Model>:<id>`; a single-use record
// (code, refresh token) is a hash whose `consumed` field marks it spent; every token of a grant
// is listed under `grant:<grantId>`, so that revoking the grant deletes them all.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Redis } from 'ioredis';

/** Models whose records belong to a grant and go when it is revoked. */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

/** Models whose records are used once: kept as a hash, so `consume` writes one field. */
const CONSUMABLE = new Set([
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

const grantKey = (grantId: string) => `grant:${grantId}`;
const userCodeKey = (userCode: string) => `userCode:${userCode}`;
const uidKey = (uid: string) => `uid:${uid}`;

export class PeerRedisAdapter implements Adapter {
  private readonly redis: Redis;
  private readonly name: string;

  constructor(redis: Redis, name: string) {
    this.redis = redis;
    this.name = name;
  }

  private key(id: string): string {
    return `${this.name}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const key = this.key(id);
    const multi = this.redis.multi();
    if (CONSUMABLE.has(this.name)) multi.hset(key, { payload: JSON.stringify(payload) });
    else multi.set(key, JSON.stringify(payload));
    if (expiresIn) multi.expire(key, expiresIn);
    if (GRANTABLE.has(this.name) && payload.grantId) {
      const list = grantKey(payload.grantId);
      multi.rpush(list, key);
      // The grant's list lives as long as its longest-lived token.
      if (expiresIn > (await this.redis.ttl(list))) multi.expire(list, expiresIn);
    }
    if (payload.userCode) multi.set(userCodeKey(payload.userCode), id, 'EX', expiresIn);
    if (payload.uid) multi.set(uidKey(payload.uid), id, 'EX', expiresIn);
    await multi.exec();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!CONSUMABLE.has(this.name)) {
      const data = await this.redis.get(this.key(id));
      return data === null ? undefined : (JSON.parse(data) as AdapterPayload);
    }
    const { payload, ...rest } = await this.redis.hgetall(this.key(id));
    if (payload === undefined) return undefined;
    // `consumed`, when set, comes from the hash's own field.
    return { ...rest, ...(JSON.parse(payload) as AdapterPayload) };
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = await this.redis.get(uidKey(uid));
    return id === null ? undefined : this.find(id);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const id = await this.redis.get(userCodeKey(userCode));
    return id === null ? undefined : this.find(id);
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const keys = await this.redis.lrange(grantKey(grantId), 0, -1);
    await this.redis
      .multi()
      .del(...keys, grantKey(grantId))
      .exec();
  }

  async consume(id: string): Promise<void> {
    await this.redis.hset(this.key(id), 'consumed', Math.floor(Date.now() / 1000));
  }
}
