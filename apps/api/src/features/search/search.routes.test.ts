import { SearchIndexSchema, type SearchIndex } from '@foodshare/schemas';
import { signInAs } from '@foodshare/server-kit/test-support';
import { Value } from 'typebox/value';
import type { ApiApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { buildAppBeside } from '../../test-support/build-test-app.ts';
import {
  describe,
  expect,
  ids,
  it,
  type ApiClient,
  type Sql,
} from '../../test-support/fixtures.ts';
import { countQueries } from '@foodshare/server-kit/test-support';
import { SEARCH_INDEX_LIMITS } from './search-index.sql.ts';

const MUSTERSTADT = 3;
const BEISPIELDORF = 4;
const WORK_GROUP = 5;

async function indexOf(client: ApiClient): Promise<SearchIndex> {
  const response = await client.get('/api/search/index');
  expect(response.statusCode).toBe(200);
  const body = response.json<SearchIndex>();
  expect(Value.Errors(SearchIndexSchema, body)).toEqual([]);
  return body;
}

/** The SQL statements one request sends. */
async function queriesOf(app: ApiApp, client: ApiClient): Promise<number> {
  const { result: response, queries } = await countQueries(app.orm, () =>
    client.get('/api/search/index'),
  );
  expect(response.statusCode).toBe(200);
  return queries;
}

describe('GET /api/search/index', () => {
  it('answers 401 without a session', async ({ anonymous }) => {
    const response = await anonymous.get('/api/search/index');
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('gives a member their own region with its ambassadors, and no other region', async ({
    as,
  }) => {
    const index = await indexOf(await as('alice'));
    expect(index.regions.map((region) => region.id)).toEqual([MUSTERSTADT]);
    expect(index.regions[0]).toEqual({
      id: MUSTERSTADT,
      name: 'Musterstadt',
      searchString: 'Musterstadt;musterstadt',
      email: 'musterstadt@foodsharing.network',
      parentId: 2,
      parentName: 'Musterland',
      isMember: true,
      ambassadors: [{ id: ids.users.dana, name: 'Dana', avatar: null, isSleeping: false }],
    });

    const bob = await indexOf(await as('bob'));
    expect(bob.regions.map((region) => region.id)).toEqual([BEISPIELDORF]);
    expect(bob.regions[0]?.ambassadors).toEqual([]);
  });

  it('lists the working groups with admin flags and ASCII-folded search terms', async ({ as }) => {
    const index = await indexOf(await as('alice'));
    expect(index.workingGroups).toEqual([
      {
        id: WORK_GROUP,
        name: 'Öffentlichkeitsarbeit Musterstadt',
        searchString:
          'Öffentlichkeitsarbeit Musterstadt;oeffentlichkeitsarbeit musterstadt;' +
          'oeffentlichkeitsarbeit.musterstadt;Musterstadt;musterstadt',
        email: 'oeffentlichkeitsarbeit.musterstadt@foodsharing.network',
        parentId: MUSTERSTADT,
        parentName: 'Musterstadt',
        isMember: true,
        isAdmin: true,
        admins: [
          {
            id: ids.users.alice,
            name: 'Alice',
            avatar: `/api/uploads/${ids.avatarUploadId}`,
            isSleeping: false,
          },
        ],
      },
    ]);
    const kim = await indexOf(await as('kim'));
    expect(kim.workingGroups).toMatchObject([
      { id: 332, name: 'Betriebsketten', isMember: true, isAdmin: false, admins: [] },
    ]);
  });

  it('lists the stores whose team the caller is in, with cooperation and membership status', async ({
    as,
  }) => {
    const alice = await indexOf(await as('alice'));
    expect(alice.stores).toEqual([
      {
        id: ids.storeId,
        name: 'Beispiel-Markt Musterstadt Mitte',
        searchString:
          'Beispiel-Markt Musterstadt Mitte;beispiel-markt musterstadt mitte;Beispiel-Markt;' +
          'beispiel-markt;Marktstraße 12;marktstrasse 12;12345;Musterstadt;musterstadt',
        cooperationStatus: 5,
        street: 'Marktstraße 12',
        zipCode: '12345',
        city: 'Musterstadt',
        regionId: MUSTERSTADT,
        regionName: 'Musterstadt',
        membershipStatus: 1,
        isManager: true,
        chainName: 'Beispiel-Markt',
      },
    ]);
    // bob is a member of the bakery; his application to alice's store is not a team yet.
    const bob = await indexOf(await as('bob'));
    expect(bob.stores).toMatchObject([
      { id: ids.otherStoreId, name: 'Bäckerei Korn', membershipStatus: 1, chainName: null },
    ]);
    expect(bob.stores[0]?.searchString).toContain('baeckerei korn');
    // dana is on standby in alice's store.
    const dana = await indexOf(await as('dana'));
    expect(dana.stores).toMatchObject([{ id: ids.storeId, membershipStatus: 2 }]);
  });

  it('lists the food-share points, events and polls of the caller’s regions only', async ({
    as,
  }) => {
    const alice = await indexOf(await as('alice'));
    expect(alice.foodSharePoints.map((point) => point.name)).toEqual([
      'Fairteiler Bahnhof',
      'Fairteiler Marktplatz',
    ]);
    expect(alice.foodSharePoints[0]).toMatchObject({
      street: 'Bahnhofstraße 5',
      zipCode: '12345',
      regionId: MUSTERSTADT,
    });
    expect(alice.foodSharePoints[0]?.searchString).toContain('bahnhofstrasse 5');
    // alice accepted the Stammtisch; dana may attend it and accepted the introduction.
    expect(alice.events).toMatchObject([
      { name: 'Stammtisch Musterstadt', status: 'accepted', locationType: 0 },
    ]);
    const dana = await indexOf(await as('dana'));
    expect(dana.events.map((event) => [event.name, event.status])).toEqual([
      ['Online-Einführung für neue Foodsharer', 'accepted'],
      ['Stammtisch Musterstadt', 'maybe'],
    ]);
    // kim declined the Stammtisch, carla has not answered: neither has it in the index.
    const kim = await indexOf(await as('kim'));
    expect(kim.events).toEqual([]);
    const carla = await indexOf(await as('carla'));
    expect(carla.events.map((event) => event.name)).toEqual([
      'Online-Einführung für neue Foodsharer',
    ]);
    // The logo poll ended 30 days ago: past the 14 days.
    expect(alice.polls.map((poll) => [poll.name, poll.hasVoted, poll.regionId])).toEqual([
      ['Neuer Wochentag für den Stammtisch', true, MUSTERSTADT],
    ]);
    expect(alice.polls[0]?.startAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const kimsPolls = kim.polls.map((poll) => [poll.name, poll.hasVoted]);
    expect(kimsPolls).toContainEqual(['Neuer Wochentag für den Stammtisch', false]);

    const bob = await indexOf(await as('bob'));
    expect(bob.foodSharePoints.map((point) => point.name)).toEqual([
      'Fairteiler Dorfgemeinschaftshaus',
    ]);
    expect(bob.events.map((event) => event.name)).toEqual(['Erntedankfest am Fairteiler']);
    expect(bob.polls.map((poll) => poll.name)).toEqual(['Putzplan für den Fairteiler']);
  });

  it('lists the conversations with their last message, other members and member count', async ({
    as,
  }) => {
    const alice = await indexOf(await as('alice'));
    expect(alice.chats).toHaveLength(2);
    const [pickup, kamChat] = alice.chats;
    expect(pickup).toMatchObject({
      id: ids.conversationId,
      name: 'Abholung Samstag',
      lastFoodsaverId: ids.users.alice,
      lastFoodsaverName: 'Alice',
      lastMessage: 'Prima, dann treffen wir uns um 18:15 Uhr am Hintereingang.',
      memberCount: 3,
    });
    expect(pickup?.members.map((member) => member.name)).toEqual(['Bob', 'Carla']);
    expect(pickup?.searchString).toBe('Abholung Samstag;abholung samstag;Bob;bob;Carla;carla');
    // The conversation without a name is called by its other members' first names.
    expect(kamChat).toMatchObject({ name: 'Kim', lastFoodsaverName: 'Alice', memberCount: 2 });
    expect(kamChat?.members.map((member) => member.id)).toEqual([ids.users.kim]);
    expect(kamChat?.searchString).toBe('Kim;kim');
  });

  it('lists the threads of the caller’s forums, the ambassador forum for ambassadors only', async ({
    as,
  }) => {
    const alice = await indexOf(await as('alice'));
    expect(alice.threads.map((thread) => thread.name)).toEqual([
      'Willkommen in Musterstadt!',
      'Erfahrungen mit der Abholung im Beispiel-Markt',
    ]);
    const welcome = alice.threads[0];
    expect(welcome).toMatchObject({
      pinnedLevel: 1,
      isClosed: false,
      isInsideAmbassadorForum: false,
      regionId: MUSTERSTADT,
      regionName: 'Musterstadt',
      body: 'Hallo zusammen, ich bin Carla und wohne in der Altstadt.',
      relevance: -1,
    });
    const experiences = alice.threads[1];
    expect(experiences?.id).toBe(ids.forumThreadId);

    const dana = await indexOf(await as('dana'));
    expect(dana.threads.map((thread) => thread.name)).toContain(
      'Botschafterrunde: Planung Stammtisch',
    );
    expect(dana.threads.find((thread) => thread.isInsideAmbassadorForum)?.name).toBe(
      'Botschafterrunde: Planung Stammtisch',
    );
    const bob = await indexOf(await as('bob'));
    expect(bob.threads.map((thread) => thread.name)).toEqual([
      'Fairteiler im Dorfgemeinschaftshaus braucht Paten',
    ]);
  });

  it('shows a hidden last post without its text', async ({ as, sql }) => {
    const [thread] = await sql<{ id: number }[]>(
      `insert into forum_threads (region_id, title, last_post_at) values (?, 'Versteckt', now())
       returning id`,
      [BEISPIELDORF],
    );
    await sql(
      `insert into forum_posts (thread_id, author_id, body, hidden_at, hide_reason)
       values (?, ?, 'geheim', now(), 'Spam')`,
      [thread!.id, ids.users.bob],
    );
    const bob = await indexOf(await as('bob'));
    expect(bob.threads.find((entry) => entry.id === thread!.id)).toMatchObject({ body: '' });
    await sql('delete from forum_threads where id = ?', [thread!.id]);
  });

  it('lists the confirmed buddies only, without last name, phone or mail address', async ({
    as,
  }) => {
    const alice = await indexOf(await as('alice'));
    expect(alice.users).toEqual([
      {
        id: ids.users.bob,
        name: 'Bob',
        searchString: 'Bob;bob;Beispieldorf;beispieldorf',
        avatar: null,
        lastName: null,
        mobile: null,
        isBuddy: true,
        isVerified: true,
        regionId: BEISPIELDORF,
        regionName: 'Beispieldorf',
        email: null,
      },
      expect.objectContaining({ id: ids.users.kim, name: 'Kim', lastName: null, email: null }),
    ]);
    // dana (a team mate) and carla (a chat partner) are no buddies of alice.
    const bob = await indexOf(await as('bob'));
    expect(bob.users.map((user) => user.id)).toEqual([ids.users.alice]);
  });

  it('leaves out a buddy request that was not returned', async ({ as, sql, factory }) => {
    const asker = await factory.user({ firstName: 'asker' });
    await sql('insert into buddies (user_id, buddy_id) values (?, ?)', [asker, ids.users.bob]);
    const bob = await indexOf(await as('bob'));
    expect(bob.users.map((user) => user.id)).not.toContain(asker);
    const index = await indexOf(await as(asker));
    expect(index.users).toEqual([]);
  });

  it('holds no phone number or mail address of anyone but the caller', async ({
    as,
    sql,
    factory,
  }) => {
    // bob's buddies, team mates and chat partners, each with a phone number and a mail address.
    const people: number[] = [];
    for (const tag of ['buddy', 'teammate', 'chatpartner']) {
      const id = await factory.user({ firstName: `private-${tag}` });
      await sql('update users set mobile = ? where id = ?', [`+49 170 ${id}`, id]);
      people.push(id);
    }
    const [buddy, teammate, partner] = people as [number, number, number];
    await sql('insert into buddies (user_id, buddy_id) values (?, ?), (?, ?)', [
      ids.users.bob,
      buddy,
      buddy,
      ids.users.bob,
    ]);
    await sql(
      `insert into store_team_memberships (store_id, user_id, status, joined_at)
       values (?, ?, 1, now())`,
      [ids.otherStoreId, teammate],
    );
    const [conversation] = await sql<{ id: number }[]>(
      'insert into conversations default values returning id',
    );
    await sql('insert into conversation_members (conversation_id, user_id) values (?, ?), (?, ?)', [
      conversation!.id,
      ids.users.bob,
      conversation!.id,
      partner,
    ]);

    const bob = await indexOf(await as('bob'));
    const others = await sql<{ email: string; mobile: string | null; last_name: string }[]>(
      'select email, mobile, last_name from users where id <> ?',
      [ids.users.bob],
    );
    const text = JSON.stringify(bob);
    for (const other of others) {
      expect(text).not.toContain(other.email);
      if (other.mobile) expect(text).not.toContain(other.mobile);
    }
    expect(bob.users.map((user) => user.id)).toContain(buddy);
    for (const user of bob.users) {
      expect(user).toMatchObject({ lastName: null, mobile: null, email: null });
    }
    await sql('delete from conversations where id = ?', [conversation!.id]);
    await sql('delete from users where id in (?, ?, ?)', people);
  });

  it('keeps events and polls until 14 days after they ended', async ({ as, sql }) => {
    const events = await sql<{ id: number; name: string }[]>(
      `insert into events (region_id, name, start_at, end_at) values
         (?, 'Vor 13 Tagen', now() - interval '13 days 2 hours', now() - interval '13 days'),
         (?, 'Vor 15 Tagen', now() - interval '15 days 2 hours', now() - interval '15 days')
       returning id, name`,
      [BEISPIELDORF, BEISPIELDORF],
    );
    for (const event of events) {
      await sql(
        `insert into event_invitations (event_id, user_id, status) values (?, ?, 'maybe')`,
        [event.id, ids.users.bob],
      );
    }
    const polls = await sql<{ id: number }[]>(
      `insert into polls (region_id, name, start_at, end_at) values
         (?, 'Umfrage vor 13 Tagen', now() - interval '20 days', now() - interval '13 days'),
         (?, 'Umfrage vor 15 Tagen', now() - interval '20 days', now() - interval '15 days')
       returning id`,
      [BEISPIELDORF, BEISPIELDORF],
    );
    const bob = await indexOf(await as('bob'));
    expect(bob.events.map((event) => event.name)).toContain('Vor 13 Tagen');
    expect(bob.events.map((event) => event.name)).not.toContain('Vor 15 Tagen');
    expect(bob.polls.map((poll) => poll.name)).toContain('Umfrage vor 13 Tagen');
    expect(bob.polls.map((poll) => poll.name)).not.toContain('Umfrage vor 15 Tagen');
    await sql(
      'delete from events where id in (?, ?)',
      events.map((event) => event.id),
    );
    await sql(
      'delete from polls where id in (?, ?)',
      polls.map((poll) => poll.id),
    );
  });

  it('puts the conversation with the newest message first, then the newest empty one', async ({
    as,
    sql,
    factory,
  }) => {
    const chatter = await factory.user({ firstName: 'chat-order' });
    const conversations: number[] = [];
    for (const name of ['Erste', 'Zweite', 'Dritte']) {
      const [conversation] = await sql<{ id: number }[]>(
        `insert into conversations (name, created_at) values (?, now() - interval '1 day')
         returning id`,
        [name],
      );
      await sql('insert into conversation_members (conversation_id, user_id) values (?, ?)', [
        conversation!.id,
        chatter,
      ]);
      conversations.push(conversation!.id);
    }
    const [first, second] = conversations as [number, number, number];
    const order = async () => (await indexOf(await as(chatter))).chats.map((chat) => chat.name);
    // None with a message yet: the newest created first.
    expect(await order()).toEqual(['Dritte', 'Zweite', 'Erste']);
    const write = (conversation: number, body: string) =>
      sql('insert into messages (conversation_id, author_id, body) values (?, ?, ?)', [
        conversation,
        chatter,
        body,
      ]);
    await write(first, 'eins');
    expect(await order()).toEqual(['Erste', 'Dritte', 'Zweite']);
    await write(second, 'zwei');
    const index = await indexOf(await as(chatter));
    expect(index.chats.map((chat) => [chat.name, chat.lastMessage])).toEqual([
      ['Zweite', 'zwei'],
      ['Erste', 'eins'],
      ['Dritte', null],
    ]);
    await sql('delete from conversations where id in (?, ?, ?)', conversations);
  });

  it('names a conversation without a name by its other members, and one alone by nobody', async ({
    as,
    sql,
  }) => {
    const [conversation] = await sql<{ id: number }[]>(
      'insert into conversations default values returning id',
    );
    await sql('insert into conversation_members (conversation_id, user_id) values (?, ?)', [
      conversation!.id,
      ids.users.bob,
    ]);
    let bob = await indexOf(await as('bob'));
    expect(bob.chats.find((chat) => chat.id === conversation!.id)?.name).toBe('');
    await sql('insert into conversation_members (conversation_id, user_id) values (?, ?), (?, ?)', [
      conversation!.id,
      ids.users.kim,
      conversation!.id,
      ids.users.carla,
    ]);
    bob = await indexOf(await as('bob'));
    expect(bob.chats.find((chat) => chat.id === conversation!.id)?.name).toBe('Carla, Kim');
    await sql('delete from conversations where id = ?', [conversation!.id]);
  });

  it('lists the mails of the caller’s mailboxes, newest first, in the formats of docs/spec.md §2.12', async ({
    as,
  }) => {
    const alice = await indexOf(await as('alice'));
    expect(alice.mails.map((mail) => mail.name)).toEqual([
      'Rückfrage zu den Abholzeiten',
      'Pressetermin am neuen Fairteiler',
    ]);
    expect(alice.mails[1]).toMatchObject({
      senderName: 'Öffentlichkeitsarbeit Musterstadt',
      recipientCount: '2',
      hasAttachments: true,
      folder: 2,
    });
    expect(alice.mails[0]?.sentAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(alice.mails[0]?.searchString).toContain('rueckfrage zu den abholzeiten');
    const dana = await indexOf(await as('dana'));
    expect(dana.mails.map((mail) => mail.name)).toEqual(['Anfrage: Fairteiler am Rathaus']);
  });

  it('gives a user without any relation an empty index', async ({ as, factory }) => {
    const loner = await factory.user({ firstName: 'loner' });
    const index = await indexOf(await as(loner));
    for (const entries of Object.values(index)) expect(entries).toEqual([]);
  });

  describe('revalidation with an ETag', () => {
    async function fetchIndex(client: ApiClient, ifNoneMatch?: string) {
      return client.get(
        '/api/search/index',
        ifNoneMatch === undefined ? {} : { headers: { 'if-none-match': ifNoneMatch } },
      );
    }

    /** The tag of the caller's index now, after checking that a repeat answers the same one. */
    async function etagOf(client: ApiClient): Promise<string> {
      const first = await fetchIndex(client);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect((await fetchIndex(client)).headers.etag).toBe(etag);
      return etag;
    }

    it('tags the answer with a strong ETag that only the user’s browser keeps, revalidating', async ({
      as,
    }) => {
      const alice = await as('alice');
      const first = await fetchIndex(alice);
      const second = await fetchIndex(alice);
      expect(first.statusCode).toBe(200);
      expect(first.headers.etag).toMatch(/^"[\w-]{20,}"$/);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.body).toBe(first.body);
      expect(first.headers['cache-control']).toBe('private, no-cache');
    });

    it('answers 304 without a body to a request that names the current tag', async ({ as }) => {
      const alice = await as('alice');
      const etag = await etagOf(alice);
      for (const header of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
        const response = await fetchIndex(alice, header);
        expect(response.statusCode, header).toBe(304);
        expect(response.body).toBe('');
        expect(response.headers.etag).toBe(etag);
        expect(response.headers['cache-control']).toBe('private, no-cache');
        expect(response.headers['content-type']).toBeUndefined();
      }
      const stale = await fetchIndex(alice, '"stale"');
      expect(stale.statusCode).toBe(200);
      expect(stale.headers.etag).toBe(etag);
    });

    it('changes the tag when the caller joins a region, gets a conversation or a message', async ({
      as,
      sql,
      factory,
    }) => {
      const joiner = await factory.user({ firstName: 'etag-joiner' });
      const client = await as(joiner);
      const empty = await etagOf(client);

      await sql('insert into region_memberships (region_id, user_id) values (?, ?)', [
        BEISPIELDORF,
        joiner,
      ]);
      const member = await etagOf(client);
      expect(member).not.toBe(empty);
      const rejoined = await fetchIndex(client, empty);
      expect(rejoined.statusCode).toBe(200);
      expect(rejoined.json<SearchIndex>().regions.map((region) => region.id)).toEqual([
        BEISPIELDORF,
      ]);

      const [conversation] = await sql<{ id: number }[]>(
        'insert into conversations default values returning id',
      );
      await sql(
        'insert into conversation_members (conversation_id, user_id) values (?, ?), (?, ?)',
        [conversation!.id, joiner, conversation!.id, ids.users.bob],
      );
      const chatting = await etagOf(client);
      expect(chatting).not.toBe(member);

      // Written by someone else, in a table the caller never touched.
      await sql('insert into messages (conversation_id, author_id, body) values (?, ?, ?)', [
        conversation!.id,
        ids.users.bob,
        'Hallo!',
      ]);
      const messaged = await etagOf(client);
      expect(messaged).not.toBe(chatting);
      expect((await fetchIndex(client, chatting)).json<SearchIndex>().chats[0]).toMatchObject({
        lastMessage: 'Hallo!',
      });
      await sql('delete from conversations where id = ?', [conversation!.id]);
      await sql('delete from region_memberships where user_id = ?', [joiner]);
      expect(await etagOf(client)).toBe(empty);
    });

    it('gives nobody else’s index for their tag, and no 304 without a session', async ({
      as,
      anonymous,
    }) => {
      const alicesTag = await etagOf(await as('alice'));
      const forBob = await fetchIndex(await as('bob'), alicesTag);
      expect(forBob.statusCode).toBe(200);
      expect(forBob.headers.etag).not.toBe(alicesTag);
      expect(forBob.json<SearchIndex>().regions.map((region) => region.id)).toEqual([BEISPIELDORF]);

      const withoutSession = await anonymous.get('/api/search/index', {
        headers: { 'if-none-match': alicesTag },
      });
      expect(withoutSession.statusCode).toBe(401);
      expect(withoutSession.headers.etag).toBeUndefined();
      expect(withoutSession.headers['cache-control']).toBe('no-store');
    });
  });

  it('costs the same number of queries for a user with few rows and one with many', async ({
    app,
    as,
    sql,
    factory,
  }) => {
    const few = await factory.user({ firstName: 'few' });
    const many = await factory.user({ firstName: 'many' });
    await fillManyRows(sql, many);
    const index = await indexOf(await as(many));
    // Enough rows that a per-row query would show, and the bounds hold.
    expect(index.regions.length).toBe(20);
    expect(index.chats.length).toBe(SEARCH_INDEX_LIMITS.chats);
    expect(index.threads.length).toBe(SEARCH_INDEX_LIMITS.threads);
    expect(index.mails.length).toBe(SEARCH_INDEX_LIMITS.mails);
    expect(index.users.length).toBeGreaterThan(50);
    await indexOf(await as(few));

    // Built afresh for both: the data changed since their indexes were kept (a user was made).
    await factory.user({ firstName: 'after' });
    const forFew = await queriesOf(app, await as(few));
    const forMany = await queriesOf(app, await as(many));
    expect(forMany).toBe(forFew);
    // The version of the kept index (with the caller's account) and the index itself.
    expect(forMany).toBe(2);
  });

  async function fillManyRows(sql: Sql, userId: number): Promise<void> {
    await sql(
      `with new_regions as (
         insert into regions (name, type, parent_id)
         select 'Ort ' || i, 1, 2 from generate_series(1, 20) i returning id)
       insert into region_memberships (region_id, user_id) select id, ? from new_regions`,
      [userId],
    );
    await sql(
      `insert into forum_threads (region_id, title, last_post_at)
       select m.region_id, 'Thema ' || i, now() - i * interval '1 minute'
         from region_memberships m, generate_series(1, 15) i
        where m.user_id = ?`,
      [userId],
    );
    await sql(
      `insert into forum_posts (thread_id, body)
       select t.id, 'Beitrag' from forum_threads t
         join region_memberships m on m.region_id = t.region_id where m.user_id = ?`,
      [userId],
    );
    const partners = await sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash)
       select 'Partner' || i, 'P', 'partner' || i || '-' || ? || '@search.example.org', 'x'
         from generate_series(1, 60) i returning id`,
      [userId],
    );
    await sql(
      `insert into buddies (user_id, buddy_id)
       select ?, p from unnest(?::int[]) p union all select p, ? from unnest(?::int[]) p`,
      [
        userId,
        `{${partners.map((p) => p.id).join(',')}}`,
        userId,
        `{${partners.map((p) => p.id).join(',')}}`,
      ],
    );
    for (const [i, partner] of partners.entries()) {
      const [conversation] = await sql<{ id: number }[]>(
        'insert into conversations default values returning id',
      );
      await sql(
        'insert into conversation_members (conversation_id, user_id) values (?, ?), (?, ?)',
        [conversation!.id, userId, conversation!.id, partner.id],
      );
      await sql(
        `insert into messages (conversation_id, author_id, body, sent_at)
         select ?, ?, 'Nachricht ' || n, now() - (? * 10 + n) * interval '1 minute'
           from generate_series(1, 3) n`,
        [conversation!.id, partner.id, i],
      );
    }
    const [mailbox] = await sql<{ id: number }[]>(
      `insert into mailboxes (name) values ('many-' || ?) returning id`,
      [userId],
    );
    await sql('insert into mailbox_members (mailbox_id, user_id) values (?, ?)', [
      mailbox!.id,
      userId,
    ]);
    await sql(
      `insert into mails (mailbox_id, sender_mail, recipient_mail, subject, sent_at)
       select ?, 'a@example.org', 'b@example.org', 'Betreff ' || i, now() - i * interval '1 hour'
         from generate_series(1, 80) i`,
      [mailbox!.id],
    );
  }
});

describe('GET /api/search/index with a configured mail host', () => {
  it('completes the mailbox names with that host', async ({ testApp }) => {
    // Beside the file's app, on its database: a second test app would replace that database.
    const app = await buildAppBeside(testApp, { MAILBOX_HOST: 'lebensmittelretter.example' });
    try {
      const client = await signInAs(app, ids.users.alice);
      const response = await app.inject({
        method: 'GET',
        url: '/api/search/index',
        cookies: client.cookies,
      });
      const index = response.json<SearchIndex>();
      expect(index.regions[0]?.email).toBe('musterstadt@lebensmittelretter.example');
      expect(index.workingGroups[0]?.email).toBe(
        'oeffentlichkeitsarbeit.musterstadt@lebensmittelretter.example',
      );
    } finally {
      await app.close();
    }
  });

  it('refuses a mail host that is no host name at start', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/app', MAILBOX_HOST: 'a b@c' })).toThrow(
      /MAILBOX_HOST/,
    );
  });
});
