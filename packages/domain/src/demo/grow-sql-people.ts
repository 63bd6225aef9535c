/**
 * Set-based SQL that adds the people and units of a grown database. Every statement reads its
 * sizes and id ranges from the `grow_plan` temporary table, so each row is computed from its
 * index: unit `c` of the cities, user `g` of the users, with no row-by-row round trip.
 *
 * Layout (0-based indexes):
 * - federal states `first_state + s`, under the demo country;
 * - cities `first_city + c` (types city, district, region, part of town: the ones with members
 *   and stores), each under a state;
 * - working groups `first_group + j`, group j under city j;
 * - user g lives in city `g % n_cities` and is a member there; every fifth user whose city has a
 *   group is a member of that group too; 20 % are unverified foodsharers, the rest verified
 *   foodsavers, store managers and ambassadors (who administer their city).
 */
export interface GrowStep {
  name: string;
  /** Statements run one after another, in the transaction of the whole run. */
  sql: readonly string[];
}

const FIRST_NAMES = `array['Anna','Ben','Clara','David','Emma','Felix','Greta','Hannes','Ida','Jonas','Klara','Lukas','Mia','Noah','Paula','Theo']`;
const LAST_NAMES = `array['Müller','Schmidt','Schneider','Fischer','Weber','Meyer','Wagner','Becker','Schulz','Hoffmann','Koch','Richter','Klein','Wolf','Neumann','Krüger']`;

export const GROW_PEOPLE_STEPS: readonly GrowStep[] = [
  {
    name: 'regions',
    sql: [
      `insert into regions (id, name, type, parent_id, apply_type)
          select p.first_state + s, 'Bundesland ' || (s + 1), 5, p.country, 2
            from grow_plan p, generate_series(0, p.n_states - 1) s
          union all
          select p.first_city + c, 'Ort ' || (c + 1), (array[1, 2, 3, 9])[1 + c % 4],
                 p.first_state + c % p.n_states, 2
            from grow_plan p, generate_series(0, p.n_cities - 1) c
          union all
          select p.first_group + j, 'Arbeitsgruppe Ort ' || (j + 1), 7, p.first_city + j,
                 (array[2, 3])[1 + j % 2]
            from grow_plan p, generate_series(0, p.n_groups - 1) j`,
    ],
  },
  {
    name: 'users',
    sql: [
      `insert into users (id, first_name, last_name, email, password_hash, role, verified,
                             sleeping, home_region_id, street, zip, city, latitude, longitude,
                             privacy_notice_accepted_at, created_at)
          select p.first_user + g,
                 (${FIRST_NAMES})[1 + g % 16],
                 (${LAST_NAMES})[1 + (g / 16) % 16],
                 'grown' || (p.first_user + g) || '@example.org',
                 p.password_hash,
                 case when g % 100 < 20 then 0 when g % 100 < 90 then 1
                      when g % 100 < 98 then 2 else 3 end,
                 g % 100 >= 20,
                 g % 50 = 7,
                 p.first_city + g % p.n_cities,
                 -- A quarter has no address, so the distance of a store request is unknown (-1).
                 case when g % 4 > 0 then 'Hauptstraße ' || (1 + g % 200) end,
                 case when g % 4 > 0 then lpad((10000 + g % 89999)::text, 5, '0') end,
                 case when g % 4 > 0 then 'Ort ' || (1 + g % p.n_cities) end,
                 case when g % 4 > 0 then 47.5 + (g % 997) * 0.0065 end,
                 case when g % 4 > 0 then 6.0 + (g % 991) * 0.0088 end,
                 p.now - (g % 1500) * interval '1 day',
                 p.now - (g % 1500) * interval '1 day'
            from grow_plan p, generate_series(0, p.users - 1) g`,
    ],
  },
  {
    name: 'region memberships',
    sql: [
      `insert into region_memberships (region_id, user_id, active, joined_at)
          select u.home_region_id, u.id, true, u.created_at
            from grow_plan p join users u on u.id >= p.first_user
          union all
          select p.first_group + (u.id - p.first_user) % p.n_cities, u.id, true, u.created_at
            from grow_plan p join users u on u.id >= p.first_user
           where (u.id - p.first_user) % 5 = 0
             and (u.id - p.first_user) % p.n_cities < p.n_groups`,
    ],
  },
  {
    name: 'region admins',
    // Ambassadors administer their city; the first member of a group administers the group.
    sql: [
      `insert into region_admins (region_id, user_id)
          select u.home_region_id, u.id
            from grow_plan p join users u on u.id >= p.first_user
           where u.role = 3
          union all
          select m.region_id, min(m.user_id)
            from grow_plan p
            join region_memberships m on m.region_id >= p.first_group
           group by m.region_id`,
    ],
  },
  {
    name: 'member lists',
    // The members of every grown city, and the verified ones among them, as arrays: the later
    // steps pick authors, team members and actors from these by index.
    sql: [
      `create temp table grow_city_members on commit drop as
          select m.region_id,
                 array_agg(m.user_id order by m.user_id) as ids,
                 coalesce(array_agg(m.user_id order by m.user_id) filter (where u.verified),
                          '{}') as verified_ids
            from grow_plan p
            join region_memberships m
              on m.region_id >= p.first_city and m.region_id < p.first_group
            join users u on u.id = m.user_id
           group by m.region_id`,
      `alter table grow_city_members add primary key (region_id)`,
      `create temp table grow_verified on commit drop as
          select (row_number() over (order by u.id) - 1)::int as rn, u.id, u.home_region_id
            from grow_plan p join users u on u.id >= p.first_user
           where u.verified`,
      `alter table grow_verified add primary key (rn)`,
    ],
  },
];
