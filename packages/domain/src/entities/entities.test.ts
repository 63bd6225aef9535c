import { hash } from 'node:crypto';
import {
  CheckConstraintViolationException,
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
  ref,
} from '@mikro-orm/core';
import { ChainStatus, RegionType, Role, WellKnownUnit } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import { MAX_RESOURCES_PER_USER } from '../permissions/resource.permissions.ts';
import { describe, expect, it } from '../test-support/fixtures.ts';
import {
  BananaEntity,
  ConversationEntity,
  ConversationMemberEntity,
  MessageEntity,
  OAuthClientEntity,
  RegionEntity,
  RegionMembershipEntity,
  RegionOptionsEntity,
  ResourceEntity,
  StoreChainEntity,
  StoreChainKamEntity,
  StoreEntity,
  UploadEntity,
  UserEntity,
} from './index.ts';

let sequence = 0;
function newUser(
  em: EntityManager,
  fields: { email?: string; homeRegion?: RegionEntity } = {},
): UserEntity {
  sequence += 1;
  return em.create(UserEntity, {
    firstName: `Ada${sequence}`,
    lastName: 'Lovelace',
    email: `ada${sequence}@example.org`,
    passwordHash: '$argon2id$not-a-real-hash',
    ...fields,
  });
}

function newRegion(em: EntityManager, name = 'Münster'): RegionEntity {
  return em.create(RegionEntity, { name, type: RegionType.City });
}

describe('users', () => {
  it('are stored with their home region and read back with it', async ({ em, orm }) => {
    const region = newRegion(em);
    const user = newUser(em, { homeRegion: region });
    await em.flush();
    expect(user.id).toBeGreaterThan(0);
    expect(user.createdAt).toBeInstanceOf(Date);

    const read = await orm.em
      .fork()
      .findOneOrFail(UserEntity, user.id, { populate: ['homeRegion'] });
    expect(read.homeRegion?.$.name).toBe('Münster');
    expect(read.role).toBe(Role.Foodsharer);
    expect(read.activated).toBe(true);
    expect(read.sleeping).toBe(false);
    expect(read.latitude).toBeNull();
  });

  it('keep email addresses in lower case, in storage and in lookups', async ({ em, orm }) => {
    const user = newUser(em, { email: ' Grace.Hopper@Example.ORG ' });
    await em.flush();
    const [row] = await em
      .getConnection()
      .execute<{ email: string }[]>('select email from users where id = ?', [user.id]);
    expect(row?.email).toBe('grace.hopper@example.org');

    const found = await orm.em.fork().findOne(UserEntity, { email: 'GRACE.HOPPER@example.org' });
    expect(found?.id).toBe(user.id);
  });

  it('have a unique email address', async ({ em, orm }) => {
    newUser(em, { email: 'twice@example.org' });
    await em.flush();
    const other = orm.em.fork();
    other.create(UserEntity, {
      firstName: 'Other',
      lastName: 'Person',
      email: 'Twice@example.org',
      passwordHash: 'x',
    });
    await expect(other.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });

  it('refuse a role outside 0-4', async ({ em }) => {
    newUser(em).role = 5 as Role;
    await expect(em.flush()).rejects.toBeInstanceOf(CheckConstraintViolationException);
  });

  it('may carry an avatar upload, whose bytes load only on demand', async ({ em, orm }) => {
    const user = newUser(em);
    await em.flush();
    const content = Buffer.from('not really a jpeg');
    const upload = em.create(UploadEntity, {
      user,
      mimeType: 'image/jpeg',
      size: content.length,
      sha256: hash('sha256', content, 'hex'),
      content,
    });
    user.avatarUpload = ref(upload);
    await em.flush();

    const fork = orm.em.fork();
    const read = await fork.findOneOrFail(UserEntity, user.id, { populate: ['avatarUpload'] });
    expect(read.avatarUpload?.id).toBe(upload.id);
    expect(read.avatarUpload?.$.mimeType).toBe('image/jpeg');
    expect(read.avatarUpload?.$.content).toBeUndefined();
    const withBytes = await fork.findOneOrFail(UploadEntity, upload.id, { populate: ['content'] });
    expect(Buffer.from(withBytes.content).toString()).toBe('not really a jpeg');
  });
});

describe('regions', () => {
  it('accept the well-known ids of the reference platform', async ({ em, orm }) => {
    const group = em.create(RegionEntity, {
      id: WellKnownUnit.StoreChainGroup,
      name: 'Store chains',
      type: RegionType.WorkingGroup,
    });
    await em.flush();
    expect(group.id).toBe(332);
    expect((await orm.em.fork().findOneOrFail(RegionEntity, 332)).applyType).toBe(2);
  });

  it('start with the default options of docs/domain.md §3.15', async ({ em, orm }) => {
    const region = newRegion(em);
    em.create(RegionOptionsEntity, { region });
    await em.flush();
    const options = await orm.em.fork().findOneOrFail(RegionOptionsEntity, { region: region.id });
    expect(options).toMatchObject({
      enableReportButton: false,
      enableMediationButton: false,
      regionPickupRuleActive: false,
      regionPickupRuleTimespan: 0,
      regionPickupRuleLimit: 0,
      regionPickupRuleLimitDay: 0,
      regionPickupRuleInactive: 0,
      selectedReportReasonOptions: 1,
      enableReportReasonOther: true,
    });
  });

  it('have one membership per user, found by region and user', async ({ em, orm }) => {
    const region = newRegion(em);
    const user = newUser(em);
    em.create(RegionMembershipEntity, { region, user });
    await em.flush();
    const membership = await orm.em
      .fork()
      .findOneOrFail(RegionMembershipEntity, { region: region.id, user: user.id });
    expect(membership.active).toBe(true);
    expect(membership.joinedAt).toBeInstanceOf(Date);

    const other = orm.em.fork();
    other.create(RegionMembershipEntity, { region: region.id, user: user.id });
    await expect(other.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });
});

describe('stores', () => {
  it('are stored with their chain, and the chain with its key account managers', async ({
    em,
    orm,
  }) => {
    const region = newRegion(em);
    const kam = newUser(em);
    const chain = em.create(StoreChainEntity, {
      name: 'Biomarkt',
      status: ChainStatus.Cooperating,
    });
    chain.kams.add(em.create(StoreChainKamEntity, { chain, user: kam }));
    const store = em.create(StoreEntity, { name: 'Biomarkt Mitte', region, chain });
    await em.flush();

    const fork = orm.em.fork();
    const read = await fork.findOneOrFail(StoreEntity, store.id, {
      populate: ['chain', 'chain.kams'],
    });
    expect(read.chain?.$.name).toBe('Biomarkt');
    expect(read.chain?.$.kams.getItems().map((k) => k.user.id)).toEqual([kam.id]);
    expect(read.chain?.$.modificationDate).toBeInstanceOf(Date);
    expect(await fork.count(StoreEntity, { chain: chain.id })).toBe(1);
  });

  it('cannot outlive their region', async ({ em }) => {
    const region = newRegion(em);
    em.create(StoreEntity, { name: 'Corner shop', region });
    await em.flush();
    await expect(em.nativeDelete(RegionEntity, region.id)).rejects.toBeInstanceOf(
      ForeignKeyConstraintViolationException,
    );
  });
});

describe('messages', () => {
  it('are unique per conversation, author and client key', async ({ em, orm }) => {
    const author = newUser(em);
    const otherAuthor = newUser(em);
    const conversation = em.create(ConversationEntity, {});
    em.create(ConversationMemberEntity, { conversation, user: author });
    em.create(MessageEntity, { conversation, author, body: 'Hello', clientKey: '0123456789ab' });
    em.create(MessageEntity, {
      conversation,
      author: otherAuthor,
      body: 'Hello',
      clientKey: '0123456789ab',
    });
    em.create(MessageEntity, { conversation, author, body: 'No key' });
    em.create(MessageEntity, { conversation, author, body: 'No key again' });
    await em.flush();

    const retry = orm.em.fork();
    retry.create(MessageEntity, {
      conversation: conversation.id,
      author: author.id,
      body: 'Hello',
      clientKey: '0123456789ab',
    });
    await expect(retry.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });

  it('refuse a blank body and a malformed client key', async ({ em, orm }) => {
    const author = newUser(em);
    const conversation = em.create(ConversationEntity, {});
    await em.flush();

    const blank = orm.em.fork();
    blank.create(MessageEntity, { conversation: conversation.id, author: author.id, body: ' \n ' });
    await expect(blank.flush()).rejects.toBeInstanceOf(CheckConstraintViolationException);

    const badKey = orm.em.fork();
    badKey.create(MessageEntity, {
      conversation: conversation.id,
      author: author.id,
      body: 'x',
      clientKey: 'ABCDEF012345',
    });
    await expect(badKey.flush()).rejects.toBeInstanceOf(CheckConstraintViolationException);
  });
});

describe('bananas', () => {
  it('are one per sender and recipient, with a message of at least 100 characters', async ({
    em,
    orm,
  }) => {
    const sender = newUser(em);
    const recipient = newUser(em);
    await em.flush();
    const message = 'Thank you! '.repeat(10);
    em.create(BananaEntity, { sender, recipient, message });
    await em.flush();

    const again = orm.em.fork();
    again.create(BananaEntity, { sender: sender.id, recipient: recipient.id, message });
    await expect(again.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);

    const short = orm.em.fork();
    short.create(BananaEntity, { sender: recipient.id, recipient: sender.id, message: 'Thanks' });
    await expect(short.flush()).rejects.toBeInstanceOf(CheckConstraintViolationException);
  });
});

describe('OAuth clients', () => {
  it('keep their array columns', async ({ em, orm }) => {
    const client = em.create(OAuthClientEntity, {
      clientId: 'demo-app',
      name: 'Demo',
      confidential: true,
      redirectUris: ['https://demo.example/callback'],
      scopes: ['openid', 'profile'],
      grantTypes: ['authorization_code', 'refresh_token'],
      requiredRegionIds: [1, 332],
      secretHash: 'a'.repeat(64),
    });
    await em.flush();
    const read = await orm.em.fork().findOneOrFail(OAuthClientEntity, client.id);
    expect(read.redirectUris).toEqual(['https://demo.example/callback']);
    expect(read.scopes).toEqual(['openid', 'profile']);
    expect(read.requiredRegionIds).toEqual([1, 332]);
    expect(read.active).toBe(true);
  });

  it('refuse a confidential client without a secret and scopes without openid', async ({ orm }) => {
    const noSecret = orm.em.fork();
    noSecret.create(OAuthClientEntity, {
      clientId: 'no-secret',
      name: 'No secret',
      confidential: true,
      redirectUris: ['https://x.example/cb'],
      scopes: ['openid'],
      grantTypes: ['authorization_code'],
    });
    await expect(noSecret.flush()).rejects.toBeInstanceOf(CheckConstraintViolationException);

    const noOpenid = orm.em.fork();
    noOpenid.create(OAuthClientEntity, {
      clientId: 'no-openid',
      name: 'No openid',
      confidential: false,
      redirectUris: ['https://x.example/cb'],
      scopes: ['profile'],
      grantTypes: ['authorization_code'],
    });
    await expect(noOpenid.flush()).rejects.toBeInstanceOf(CheckConstraintViolationException);
  });
});

describe('resources', () => {
  /** A user with `count` resources, flushed. */
  async function ownerWith(
    em: EntityManager,
    count: number,
  ): Promise<{ owner: UserEntity; region: RegionEntity }> {
    const owner = newUser(em);
    const region = newRegion(em, 'Leihladen');
    for (let i = 1; i <= count; i += 1) {
      em.create(ResourceEntity, { owner, region, name: `Ding ${i}`, openness: 3 });
    }
    await em.flush();
    return { owner, region };
  }

  const countOf = async (em: EntityManager, owner: UserEntity) =>
    em.fork().count(ResourceEntity, { owner: owner.id });

  it(`stop at ${MAX_RESOURCES_PER_USER} per user`, async ({ em, orm }) => {
    expect(MAX_RESOURCES_PER_USER).toBe(10);
    const { owner, region } = await ownerWith(em, MAX_RESOURCES_PER_USER);
    const more = orm.em.fork();
    more.create(ResourceEntity, {
      owner: owner.id,
      region: region.id,
      name: 'Elftes',
      openness: 1,
    });
    const refused = more.flush();
    await expect(refused).rejects.toBeInstanceOf(CheckConstraintViolationException);
    await expect(refused).rejects.toThrow(/at most 10 resources/);
    expect(await countOf(em, owner)).toBe(MAX_RESOURCES_PER_USER);
  });

  it('refuse moving a resource to an owner who has 10, and allow other updates', async ({
    em,
    orm,
  }) => {
    const full = await ownerWith(em, MAX_RESOURCES_PER_USER);
    const other = await ownerWith(em, 1);
    const connection = orm.em.fork().getConnection();
    await expect(
      connection.execute('update resources set owner_id = ? where owner_id = ?', [
        full.owner.id,
        other.owner.id,
      ]),
    ).rejects.toThrow(/at most 10 resources/);
    await connection.execute("update resources set name = 'Umbenannt' where owner_id = ?", [
      full.owner.id,
    ]);
    expect(await countOf(em, full.owner)).toBe(MAX_RESOURCES_PER_USER);
    expect(await countOf(em, other.owner)).toBe(1);
  });

  it('let only one of two concurrent additions take the last place', async ({ em, orm }) => {
    const { owner, region } = await ownerWith(em, MAX_RESOURCES_PER_USER - 1);
    const add = (name: string) =>
      orm.em.fork().transactional(async (tx) => {
        await tx.execute(
          'insert into resources (owner_id, region_id, name, openness) values (?, ?, ?, 1)',
          [owner.id, region.id, name],
        );
        // Without the lock both would count 9 here, before either commits.
        await new Promise((resolve) => setTimeout(resolve, 100));
      });
    const results = await Promise.allSettled([add('Zehntes A'), add('Zehntes B')]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await countOf(em, owner)).toBe(MAX_RESOURCES_PER_USER);
  });
});
