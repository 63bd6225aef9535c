import { DemoRegionId } from '@foodshare/domain';
import type { Sql } from './sql.ts';

export interface UserSpec {
  /** 0 foodsharer, 1 foodsaver (the default), 2 store manager, 3 ambassador, 4 orga. */
  role?: number;
  /** Verified unless said otherwise. */
  verified?: boolean;
  activated?: boolean;
  firstName?: string;
  lastName?: string;
  latitude?: number | null;
  longitude?: number | null;
}

export interface RegionSpec {
  name?: string;
  /** 1 city (the default) … 7 working group. */
  type?: number;
  /** The parent unit; the demo federal state unless said otherwise. */
  parentId?: number;
  /** A working group's function (docs/domain.md §1.4): 4 stores coordination, 5 reports, … */
  workGroupFunction?: number | null;
  allowHidingInForum?: boolean;
}

/**
 * The rows the api tests add on top of the demo data, one call each, by id. Every name and
 * e-mail address is numbered, so a file may call a factory as often as it likes.
 */
export function factoriesOf(sql: Sql) {
  let count = 0;
  const next = () => (count += 1);
  const idOf = async (query: string, params: unknown[] = []) =>
    (await sql<{ id: number }[]>(query, params))[0]!.id;

  const user = (spec: UserSpec = {}): Promise<number> => {
    const n = next();
    return idOf(
      `insert into users (first_name, last_name, email, password_hash, role, verified, activated,
                          latitude, longitude)
       values (?, ?, ?, 'x', ?, ?, ?, ?, ?) returning id`,
      [
        spec.firstName ?? `User${n}`,
        spec.lastName ?? 'Test',
        `user${n}@factory.example.org`,
        spec.role ?? 1,
        spec.verified ?? true,
        spec.activated ?? true,
        spec.latitude ?? null,
        spec.longitude ?? null,
      ],
    );
  };

  const region = (spec: RegionSpec = {}): Promise<number> =>
    idOf(
      `insert into regions (name, type, parent_id, workgroup_function, allow_hiding_in_forum)
       values (?, ?, ?, ?, ?) returning id`,
      [
        spec.name ?? `Region ${next()}`,
        spec.type ?? 1,
        spec.parentId ?? DemoRegionId.FederalState,
        spec.workGroupFunction ?? null,
        spec.allowHidingInForum ?? false,
      ],
    );

  return {
    user,

    /** One user of each role, 0 to 4: `[foodsharer, foodsaver, storeManager, ambassador, orga]`. */
    async userOfEachRole(spec: Omit<UserSpec, 'role'> = {}): Promise<number[]> {
      const users: number[] = [];
      for (const role of [0, 1, 2, 3, 4]) users.push(await user({ ...spec, role }));
      return users;
    },

    region,

    /** A working group (type 7) of `parentId` with the given function. */
    workGroup: (parentId: number, workGroupFunction: number | null, name?: string) =>
      region({ type: 7, parentId, workGroupFunction, ...(name ? { name } : {}) }),

    async addAdmin(regionId: number, ...userIds: number[]): Promise<void> {
      for (const userId of userIds) {
        await sql('insert into region_admins (region_id, user_id) values (?, ?)', [
          regionId,
          userId,
        ]);
      }
    },

    async addMember(regionId: number, ...userIds: number[]): Promise<void> {
      for (const userId of userIds) {
        await sql('insert into region_memberships (region_id, user_id) values (?, ?)', [
          regionId,
          userId,
        ]);
      }
    },

    /** A store of Musterstadt unless said otherwise. */
    store: (
      spec: { name?: string; regionId?: number; latitude?: number; longitude?: number } = {},
    ): Promise<number> =>
      idOf(
        `insert into stores (name, region_id, latitude, longitude) values (?, ?, ?, ?)
         returning id`,
        [
          spec.name ?? `Store ${next()}`,
          spec.regionId ?? DemoRegionId.Musterstadt,
          spec.latitude ?? null,
          spec.longitude ?? null,
        ],
      ),

    /** A team member since now, or its manager. */
    async joinStore(storeId: number, userId: number, { manager = false } = {}): Promise<void> {
      await sql(
        `insert into store_team_memberships (store_id, user_id, status, is_manager, joined_at)
         values (?, ?, 1, ?, now())`,
        [storeId, userId, manager],
      );
    },

    /** A pending request to join the store's team, made now. */
    async applyToStore(storeId: number, userId: number, message: string | null = null) {
      await sql(
        `insert into store_team_memberships (store_id, user_id, status, application_message, applied_at)
         values (?, ?, 0, ?, now())`,
        [storeId, userId, message],
      );
    },

    /** A conversation of `memberIds`, each having read it a day ago. */
    async conversation(memberIds: number[], name = 'Test'): Promise<number> {
      const id = await idOf('insert into conversations (name) values (?) returning id', [name]);
      for (const userId of memberIds) {
        await sql(
          `insert into conversation_members (conversation_id, user_id, unread, last_read_at)
           values (?, ?, false, now() - interval '1 day')`,
          [id, userId],
        );
      }
      return id;
    },

    forumThread: (
      regionId: number,
      { title = 'Testfaden', ambassadorForum = false } = {},
    ): Promise<number> =>
      idOf(
        `insert into forum_threads (region_id, title, is_ambassador_forum)
         values (?, ?, ?) returning id`,
        [regionId, title, ambassadorForum],
      ),
  };
}

export type Factories = ReturnType<typeof factoriesOf>;
