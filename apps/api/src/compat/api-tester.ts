import type { MikroORM } from '@foodshare/domain';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import type { ApiApp } from '../app.ts';

type Rows = Record<string, unknown>[];

export interface TestUser {
  id: number;
  email: string;
}

const START = Date.now();
let uniqueCount = 0;

/** A suffix no other row of this run carries: a counter, the process and the start time. */
const unique = (): string => `${(uniqueCount += 1)}.${process.pid}.${START}`;

/**
 * The database side of the platform's API tests (Codeception's ApiTester and its `$I->create…` /
 * `$I->add…` helpers): users of the platform's roles, units, chains, forum threads,
 * conversations, bananas and quiz sessions written straight into our schema with SQL, and
 * `seeNumRecords`-style counts. The requests themselves go through `platformRequest`. Every
 * name it writes is unique, so files sharing a worker's database never collide.
 */
export class ApiTester {
  readonly app: ApiApp;
  private readonly orm: MikroORM;

  private constructor(app: ApiApp, orm: MikroORM) {
    this.app = app;
    this.orm = orm;
  }

  /** Over an app and an ORM the caller opened and closes (the fixtures: compat/fixtures.ts). */
  static over(app: ApiApp, orm: MikroORM): ApiTester {
    return new ApiTester(app, orm);
  }

  sql<T extends object[] = Rows>(query: string, params: unknown[] = []): Promise<T> {
    return this.orm.em.fork().execute<T>(query, params);
  }

  async count(query: string, params: unknown[] = []): Promise<number> {
    const rows = await this.sql<{ count: string }[]>(`select count(*) as count ${query}`, params);
    return Number(rows[0]!.count);
  }

  private async createUser(role: number, verified: boolean): Promise<TestUser> {
    const email = `compat${unique()}@platform.example.org`;
    const rows = await this.sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role, verified)
       values (?, 'Tester', ?, 'x', ?, ?) returning id`,
      [`Compat${uniqueCount}`, email, role, verified],
    );
    return { id: rows[0]!.id, email };
  }

  /** A user of `role` (0 foodsharer … 4 orga), verified unless said otherwise; its id. */
  async user(role: number, verified = true): Promise<number> {
    return (await this.createUser(role, verified)).id;
  }

  /** A foodsharer: role 0, not verified. */
  createFoodsharer(): Promise<TestUser> {
    return this.createUser(0, false);
  }

  /** A verified foodsaver (role 1). */
  createFoodsaver(): Promise<TestUser> {
    return this.createUser(1, true);
  }

  /** A verified store manager (role 2). */
  createStoreCoordinator(): Promise<TestUser> {
    return this.createUser(2, true);
  }

  createOrga(): Promise<TestUser> {
    return this.createUser(4, true);
  }

  login(user: TestUser): Promise<SignedInClient> {
    return signInAs(this.app, user.id);
  }

  /** A unit: type 1 city … 7 working group; `fn` is a working group's function. */
  async region(name: string, type = 1, parentId = 2, fn: number | null = null): Promise<number> {
    const rows = await this.sql<{ id: number }[]>(
      `insert into regions (name, type, parent_id, workgroup_function)
       values (?, ?, ?, ?) returning id`,
      [`${name} ${unique()}`, type, parentId, fn],
    );
    return rows[0]!.id;
  }

  async addMember(regionId: number, userId: number): Promise<void> {
    await this.sql('insert into region_memberships (region_id, user_id) values (?, ?)', [
      regionId,
      userId,
    ]);
  }

  async addAdmin(regionId: number, userId: number): Promise<void> {
    await this.sql('insert into region_admins (region_id, user_id) values (?, ?)', [
      regionId,
      userId,
    ]);
  }

  async chain(): Promise<number> {
    const rows = await this.sql<{ id: number }[]>(
      `insert into store_chains (name, status, headquarters_zip, headquarters_city,
                                 allow_press, notes, common_store_information)
       values (?, 1, '10115', 'Berlin', false, 'Notiz', 'Allgemeines') returning id`,
      [`Kette ${unique()}`],
    );
    return rows[0]!.id;
  }

  async forumThread(regionId: number, authorId: number): Promise<number> {
    const rows = await this.sql<{ id: number }[]>(
      `insert into forum_threads (region_id, title, author_id) values (?, ?, ?) returning id`,
      [regionId, `Faden ${unique()}`, authorId],
    );
    return rows[0]!.id;
  }

  async forumPost(threadId: number, authorId: number): Promise<number> {
    const rows = await this.sql<{ id: number }[]>(
      `insert into forum_posts (thread_id, author_id, body) values (?, ?, 'Ein Beitrag')
       returning id`,
      [threadId, authorId],
    );
    return rows[0]!.id;
  }

  /** An unnamed conversation of `memberIds`, read by all of them. */
  async conversation(memberIds: number[]): Promise<number> {
    const rows = await this.sql<{ id: number }[]>(
      `insert into conversations (name) values (null) returning id`,
    );
    const id = rows[0]!.id;
    for (const userId of memberIds) {
      await this.sql('insert into conversation_members (conversation_id, user_id) values (?, ?)', [
        id,
        userId,
      ]);
    }
    return id;
  }

  async giveBanana(recipientId: number, senderId: number, message: string): Promise<void> {
    await this.sql('insert into bananas (recipient_id, sender_id, message) values (?, ?, ?)', [
      recipientId,
      senderId,
      message,
    ]);
  }

  async haveQuizSession(userId: number, quizId: number, status: number): Promise<void> {
    await this.sql(
      // clock_timestamp(): sessions written one after the other start one after the other.
      `insert into quiz_sessions (user_id, quiz_id, status, started_at)
       values (?, ?, ?, clock_timestamp())`,
      [userId, quizId, status],
    );
  }

  async roleOf(userId: number): Promise<number> {
    const rows = await this.sql<{ role: number }[]>('select role from users where id = ?', [
      userId,
    ]);
    return rows[0]!.role;
  }
}

/** Text of at least `minLength` characters, as the platform's tests build banana messages. */
export function randomText(minLength: number): string {
  const words = ['Danke', 'für', 'die', 'zuverlässige', 'Hilfe', 'bei', 'jeder', 'Abholung'];
  let text = '';
  while (text.length < minLength) {
    text += `${words[Math.floor(Math.random() * words.length)]} `;
  }
  return text.trim() + '.';
}

/** 12 lowercase hex characters, the client key the platform's tests generate. */
export function randomClientKey(): string {
  return Array.from({ length: 12 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}
