import type { MikroORM } from '@foodshare/domain';

/**
 * The `$I->create…`/`$I->add…` helpers of the platform's API tests, as SQL through our own
 * schema: each call adds one row, named after `tag` so that files sharing a worker's
 * database never collide.
 */
export function communityOf(orm: MikroORM, tag: string) {
  let count = 0;
  const sql = async <T = Record<string, unknown>[]>(query: string, params: unknown[] = []) =>
    (await orm.em.fork().execute(query, params)) as T;
  const idOf = (rows: { id: number }[]) => rows[0]!.id;

  return {
    sql,

    /** A user of `role` (0 foodsharer … 4 orga), verified unless said otherwise. */
    async user(role: number, verified = true): Promise<number> {
      count += 1;
      const rows = await sql<{ id: number }[]>(
        `insert into users (first_name, last_name, email, password_hash, role, verified)
         values (?, 'Compat', ?, 'x', ?, ?) returning id`,
        [`${tag}${count}`, `${tag}${count}@${tag}.example.org`, role, verified],
      );
      return idOf(rows);
    },

    /** A unit: type 1 city … 7 working group; `fn` is a working group's function. */
    async region(name: string, type = 1, parentId = 2, fn: number | null = null) {
      const rows = await sql<{ id: number }[]>(
        `insert into regions (name, type, parent_id, workgroup_function)
         values (?, ?, ?, ?) returning id`,
        [`${name} ${tag}`, type, parentId, fn],
      );
      return idOf(rows);
    },

    async addMember(regionId: number, userId: number): Promise<void> {
      await sql('insert into region_memberships (region_id, user_id) values (?, ?)', [
        regionId,
        userId,
      ]);
    },

    async addAdmin(regionId: number, userId: number): Promise<void> {
      await sql('insert into region_admins (region_id, user_id) values (?, ?)', [regionId, userId]);
    },

    async chain(): Promise<number> {
      count += 1;
      const rows = await sql<{ id: number }[]>(
        `insert into store_chains (name, status, headquarters_zip, headquarters_city,
                                   allow_press, notes, common_store_information)
         values (?, 1, '10115', 'Berlin', false, 'Notiz', 'Allgemeines') returning id`,
        [`Kette ${tag} ${count}`],
      );
      return idOf(rows);
    },

    async forumThread(regionId: number, authorId: number): Promise<number> {
      const rows = await sql<{ id: number }[]>(
        `insert into forum_threads (region_id, title, author_id) values (?, ?, ?) returning id`,
        [regionId, `Faden ${tag}`, authorId],
      );
      return idOf(rows);
    },

    async forumPost(threadId: number, authorId: number): Promise<number> {
      const rows = await sql<{ id: number }[]>(
        `insert into forum_posts (thread_id, author_id, body) values (?, ?, 'Ein Beitrag')
         returning id`,
        [threadId, authorId],
      );
      return idOf(rows);
    },

    async conversation(memberIds: number[]): Promise<number> {
      const id = idOf(
        await sql<{ id: number }[]>(`insert into conversations (name) values (?) returning id`, [
          tag,
        ]),
      );
      for (const userId of memberIds) {
        await sql(
          'insert into conversation_members (conversation_id, user_id, unread) values (?, ?, false)',
          [id, userId],
        );
      }
      return id;
    },
  };
}

export type Community = ReturnType<typeof communityOf>;
