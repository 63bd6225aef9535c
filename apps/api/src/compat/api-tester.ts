import { openOrm, type MikroORM } from '@foodshare/domain';
import { signInAs, type SignedInClient } from '@foodshare/server-kit/test-support';
import type { ApiApp } from '../app.ts';
import { buildTestApp } from '../test-support/build-test-app.ts';

type Rows = Record<string, unknown>[];

export interface TestUser {
  id: number;
  email: string;
}

let userCount = 0;

/**
 * The database side of the platform's API tests (Codeception's ApiTester): users of the
 * platform's roles, conversations, bananas and sessions written straight into the database, and
 * `seeNumRecords`-style counts. The requests themselves go through `platformRequest`.
 */
export class ApiTester {
  readonly app: ApiApp;
  private readonly orm: MikroORM;

  private constructor(app: ApiApp, orm: MikroORM) {
    this.app = app;
    this.orm = orm;
  }

  static async start(): Promise<ApiTester> {
    const built = await buildTestApp();
    return new ApiTester(built.app, await openOrm({ url: built.database.url }));
  }

  async stop(): Promise<void> {
    await this.app.close();
    await this.orm.close();
  }

  sql<T extends Rows = Rows>(query: string, params: unknown[] = []): Promise<T> {
    return this.orm.em.fork().execute<T>(query, params);
  }

  async count(query: string, params: unknown[] = []): Promise<number> {
    const rows = await this.sql<{ count: string }[]>(`select count(*) as count ${query}`, params);
    return Number(rows[0]!.count);
  }

  private async createUser(role: number, verified: boolean): Promise<TestUser> {
    userCount += 1;
    const email = `compat${userCount}.${process.pid}.${Date.now()}@platform.example.org`;
    const rows = await this.sql<{ id: number }[]>(
      `insert into users (first_name, last_name, email, password_hash, role, verified)
       values (?, 'Tester', ?, 'x', ?, ?) returning id`,
      [`Compat${userCount}`, email, role, verified],
    );
    return { id: rows[0]!.id, email };
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

  async createConversation(memberIds: number[]): Promise<number> {
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
