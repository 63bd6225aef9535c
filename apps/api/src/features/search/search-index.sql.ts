import {
  namedStatement,
  RegionType,
  type Role,
  StoreTeamStatus,
  WorkGroupFunction,
  type SqlQuery,
} from '@foodshare/domain';
import type {
  SearchChat,
  SearchEvent,
  SearchFoodSharePoint,
  SearchMail,
  SearchPoll,
  SearchRegion,
  SearchStore,
  SearchThread,
  SearchUser,
  SearchWorkingGroup,
} from '@foodshare/schemas';
import { userStubJson } from '../../shared/sql.ts';

/**
 * The search index in ONE statement: every key is a scalar subquery aggregating its entries with
 * json_agg, so the request costs the same single round trip whether the caller has two rows or
 * two million (docs/spec.md §4.1 row 6, docs/design.md §3.11). The explain test plans this very
 * text.
 *
 * Every list is bounded (SEARCH_INDEX_LIMITS) and every per-parent lookup (last message, last
 * post, newest threads and mails) is an index-ordered LIMIT, so no query reads a whole big table.
 * Each entry carries `terms`, from which the service builds `searchString` with its folded forms.
 */
export const SEARCH_INDEX_LIMITS = {
  stores: 200,
  foodSharePoints: 200,
  chats: 50,
  chatMembers: 10,
  threads: 200,
  users: 500,
  mails: 50,
  events: 100,
  polls: 100,
} as const;

const L = SEARCH_INDEX_LIMITS;
const WORKING_GROUP = RegionType.WorkingGroup;
/** Folder 3 is the trash: thrown-away mail is not offered in search. */
const TRASH_FOLDER = 3;
/** Events and polls stay findable this long after they ended. */
const RECENTLY_ENDED_DAYS = 14;
const ACTIVE_TEAM = `(${StoreTeamStatus.Member}, ${StoreTeamStatus.Standby})`;
const ME = '(select id from me)';

/** The user stub of docs/spec.md §2.1 from the users row aliased `u` (always joined here). */
const STUB = userStubJson('u');

/**
 * The mail address of a unit's mailbox: its local part with the platform's mail host, an
 * address stored whole as it is, and '' for a unit without a mailbox.
 */
const UNIT_EMAIL = `case when coalesce(mu.mailbox, '') = '' then ''
                         when position('@' in mu.mailbox) > 0 then mu.mailbox
                         else mu.mailbox || '@' || (select mailbox_host from me) end`;

/**
 * The activated admins of a unit as user stubs, in name order. Lists inside an entry are an
 * ARRAY of an ordered subquery rather than an ordered json_agg: the same order, without a sort
 * set up for the aggregate of every entry.
 */
function unitAdmins(regionId: string): string {
  return `array_to_json(array(
    select ${STUB} from region_admins a join users u on u.id = a.user_id
     where a.region_id = ${regionId} and u.activated
     order by u.first_name, u.id))`;
}

/** A json array of the rows of `source`, ordered, or `[]` when there are none. */
function list(source: string, order: string): string {
  return `(select coalesce(json_agg(x order by ${order}), '[]'::json) from (${source}) x)`;
}

// Units the caller belongs to or administers (a region's admins are its ambassadors), with
// the columns every list names them by, so no list joins the regions table again.
const MY_UNITS = `
  select s.region_id, r.name, r.type, r.parent_id, r.mailbox, s.is_member, s.is_admin
    from (select s.region_id, bool_or(s.is_member) as is_member, bool_or(s.is_admin) as is_admin
            from (select m.region_id, true as is_member, false as is_admin
                    from region_memberships m
                   where m.user_id = ${ME} and m.active
                  union all
                  select a.region_id, false, true
                    from region_admins a
                   where a.user_id = ${ME}) s
           group by s.region_id) s
    join regions r on r.id = s.region_id`;

const REGIONS = `
  select mu.region_id as id, mu.name, ${UNIT_EMAIL} as email, p.id as "parentId",
         p.name as "parentName", mu.is_member as "isMember",
         ${unitAdmins('mu.region_id')} as ambassadors,
         json_build_array(mu.name, mu.mailbox) as terms
    from my_units mu
    left join regions p on p.id = mu.parent_id
   where mu.type <> ${WORKING_GROUP}`;

const WORKING_GROUPS = `
  select mu.region_id as id, mu.name, ${UNIT_EMAIL} as email, p.id as "parentId",
         p.name as "parentName", mu.is_member as "isMember", mu.is_admin as "isAdmin",
         ${unitAdmins('mu.region_id')} as admins,
         json_build_array(mu.name, mu.mailbox, p.name) as terms
    from my_units mu
    left join regions p on p.id = mu.parent_id
   where mu.type = ${WORKING_GROUP}`;

// The stores whose team the caller is in (member or standby; an application or invitation is
// not yet a team), except permanently closed ones (cooperation status 7), as on the platform.
const STORES = `
  select s.id, s.name, s.cooperation_status as "cooperationStatus", s.street,
         s.zip as "zipCode", s.city, r.id as "regionId", r.name as "regionName",
         t.status as "membershipStatus", t.is_manager as "isManager", c.name as "chainName",
         json_build_array(s.name, c.name, s.street, s.zip, s.city, r.name) as terms
    from store_team_memberships t
    join stores s on s.id = t.store_id
    join regions r on r.id = s.region_id
    left join store_chains c on c.id = s.chain_id
   where t.user_id = ${ME} and t.status in ${ACTIVE_TEAM} and s.cooperation_status <> 7
   order by t.is_manager desc, s.name, s.id
   limit ${L.stores}`;

const FOOD_SHARE_POINTS = `
  select f.id, f.name, f.street, f.zip as "zipCode", f.city,
         mu.region_id as "regionId", mu.name as "regionName",
         json_build_array(f.name, f.street, f.zip, f.city, mu.name) as terms
    from my_units mu
    join food_share_points f on f.region_id = mu.region_id
   where mu.is_member
   order by f.name, f.id
   limit ${L.foodSharePoints}`;

// The newest conversations first (by last message, or creation when empty), ordered by the
// conversation row's last_message_at: the newest message is looked up for the chosen ones only.
// Members are the others, at most chatMembers of them, in name order (an ARRAY, as in
// unitAdmins); memberCount counts everybody, the caller included. The service names a
// conversation without a name by its members, as a client shows it.
const CHATS = `
  select c.id, c.name, lm.sent_at as "lastMessageSentAt",
         lm.author_id as "lastFoodsaverId", la.first_name as "lastFoodsaverName",
         left(lm.body, 120) as "lastMessage",
         array_to_json(array(
           select ${STUB}
             from conversation_members o
             join users u on u.id = o.user_id
            where o.conversation_id = c.id and o.user_id <> ${ME} and u.activated
            order by u.first_name, u.id
            limit ${L.chatMembers})) as members,
         (select count(*) from conversation_members o
           where o.conversation_id = c.id)::int as "memberCount",
         c.sort_at
    from (select c.id, c.name, coalesce(c.last_message_at, c.created_at) as sort_at
            from conversation_members cm
            join conversations c on c.id = cm.conversation_id
           where cm.user_id = ${ME}
           order by sort_at desc, c.id desc
           limit ${L.chats}) c
    left join lateral (select m.sent_at, m.author_id, m.body
                         from messages m
                        where m.conversation_id = c.id
                        order by m.sent_at desc, m.id desc
                        limit 1) lm on true
    left join users la on la.id = lm.author_id`;

// Forums of the caller's units. An ambassador forum is read by the region's ambassadors, its
// moderators and orga (mayReadForumThread); this prefilter keeps the limit meaningful, and the
// service applies the rule itself to the facts returned with each thread.
const FORUM_UNITS = `
  select mu.region_id, mu.name, mu.is_member, mu.is_admin,
         moderation.has_group as has_moderation_group,
         moderation.is_group_admin as is_moderation_group_admin
    from my_units mu
   cross join lateral (
     select count(g.id) > 0 as has_group, coalesce(bool_or(ga.user_id is not null), false) as is_group_admin
       from regions g
       left join region_admins ga on ga.region_id = g.id and ga.user_id = ${ME}
      where g.parent_id = mu.region_id and g.type = ${WORKING_GROUP}
        and g.workgroup_function = ${WorkGroupFunction.Moderation}) moderation`;

const THREADS = `
  select t.id, t.title as name, t.last_post_at as "lastPostSentAt",
         t.pinned_level as "pinnedLevel", t.is_closed as "isClosed",
         t.is_ambassador_forum as "isInsideAmbassadorForum", lp.id as "postId",
         t.region_id as "regionId", t.region_name as "regionName",
         case when lp.hidden_at is null then left(lp.body, 200) else '' end as body,
         json_build_array(t.title, t.region_name) as terms,
         t.is_member, t.is_admin, t.has_moderation_group, t.is_moderation_group_admin
    from (select t.id, t.title, t.last_post_at, t.pinned_level, t.is_closed,
                 t.is_ambassador_forum, t.region_id, fu.name as region_name,
                 fu.is_member, fu.is_admin,
                 fu.has_moderation_group, fu.is_moderation_group_admin
            from forum_units fu
           cross join lateral (
             select t.* from forum_threads t
              where t.region_id = fu.region_id
                and (not t.is_ambassador_forum or fu.is_admin
                     or fu.is_moderation_group_admin or (select is_orga from me))
              order by t.last_post_at desc
              limit ${L.threads}) t
           order by t.last_post_at desc, t.id desc
           limit ${L.threads}) t
    cross join lateral (select p.id, p.body, p.hidden_at
                          from forum_posts p
                         where p.thread_id = t.id
                         order by p.created_at desc
                         limit 1) lp`;

// Contacts are the caller's confirmed buddies (both have added each other) and no one else.
// Nobody's last name, phone number or mail address goes into the index: it is kept on the
// device for searching, and such data is not the index's to hand out.
const USERS = `
  select u.id, u.first_name as name,
         case when u.avatar_upload_id is null then null
              else '/api/uploads/' || u.avatar_upload_id end as avatar,
         null::text as "lastName", null::text as mobile,
         true as "isBuddy", u.verified as "isVerified",
         hr.id as "regionId", hr.name as "regionName",
         null::text as email,
         json_build_array(u.first_name, hr.name) as terms
    from buddies b
    join buddies back on back.user_id = b.buddy_id and back.buddy_id = b.user_id
    join users u on u.id = b.buddy_id and u.activated
    left join regions hr on hr.id = u.home_region_id
   where b.user_id = ${ME}
   order by u.first_name, u.id
   limit ${L.users}`;

const MAILS = `
  select m.id, m.subject as name, m.sender_mail as "senderMail", m.sender_name as "senderName",
         m.recipient_mail as "recipientMail", m.recipient_name as "recipientName",
         m.recipient_count::text as "recipientCount", m.has_attachments as "hasAttachments",
         m.sent_at as "sentAt", m.folder,
         json_build_array(m.subject, m.sender_name, m.sender_mail, m.recipient_name,
                          m.recipient_mail) as terms
    from mailbox_members mm
   cross join lateral (select m.* from mails m
                        where m.mailbox_id = mm.mailbox_id and m.folder <> ${TRASH_FOLDER}
                        order by m.sent_at desc
                        limit ${L.mails}) m
   where mm.user_id = ${ME}
   order by m.sent_at desc, m.id desc
   limit ${L.mails}`;

// Events of the caller's regions that they accepted or may attend ("maybe"), up to 14 days
// after they ended, with the caller's answer as the entry's status.
const EVENTS = `
  select e.id, e.name, e.location_name as "locationName", i.status,
         e.start_at as "startAt", e.end_at as "endAt", e.location_type as "locationType",
         e.region_id as "regionId", mu.name as "regionName",
         json_build_array(e.name, e.location_name, mu.name) as terms
    from event_invitations i
    join events e on e.id = i.event_id
    join my_units mu on mu.region_id = e.region_id and mu.is_member
   where i.user_id = ${ME} and i.status in ('accepted', 'maybe')
     and e.end_at >= now() - interval '${RECENTLY_ENDED_DAYS} days'
   order by e.start_at desc, e.id desc
   limit ${L.events}`;

// Polls of the caller's regions, whose members vote in them, up to 14 days after they ended.
const POLLS = `
  select p.id, p.name, p.start_at as "startAt", p.end_at as "endAt",
         p.region_id as "regionId", mu.name as "regionName",
         exists (select 1 from poll_votes v
                  where v.poll_id = p.id and v.user_id = ${ME}) as "hasVoted",
         json_build_array(p.name, mu.name) as terms
    from my_units mu
    join polls p on p.region_id = mu.region_id
   where mu.is_member and p.end_at >= now() - interval '${RECENTLY_ENDED_DAYS} days'
   order by p.start_at desc, p.id desc
   limit ${L.polls}`;

/**
 * The sum the triggers of Migration20261126091000_search_index_versions raise with every write
 * to a table read below, as text (a bigint). Read in the index's own statement, it is the
 * version of exactly the rows the index was built from.
 */
const VERSION_OF_DATA = `(select coalesce(sum(v.version), 0)::text from search_index_versions v)`;

/** Parameters: the caller's id, whether the caller is orga, and the platform's mail host. */
export const SEARCH_INDEX_SQL = `
with me as materialized (select ?::int as id, ?::boolean as is_orga, ?::text as mailbox_host),
     my_units as materialized (${MY_UNITS}),
     forum_units as materialized (${FORUM_UNITS})
select
  ${list(REGIONS, 'x.name, x.id')} as regions,
  ${list(WORKING_GROUPS, 'x.name, x.id')} as working_groups,
  ${list(STORES, 'x."isManager" desc, x.name, x.id')} as stores,
  ${list(FOOD_SHARE_POINTS, 'x.name, x.id')} as food_share_points,
  ${list(CHATS, 'x.sort_at desc, x.id desc')} as chats,
  ${list(THREADS, 'x."lastPostSentAt" desc, x.id desc')} as threads,
  ${list(USERS, 'x.name, x.id')} as users,
  ${list(MAILS, 'x."sentAt" desc, x.id desc')} as mails,
  ${list(EVENTS, 'x."startAt" desc, x.id desc')} as events,
  ${list(POLLS, 'x."startAt" desc, x.id desc')} as polls,
  (${VERSION_OF_DATA}) as version`;

/**
 * The name the index's text is prepared under: a digest of that text, so that what is kept
 * under it (the cached indexes) never outlives a change of the query.
 */
export const SEARCH_INDEX_STATEMENT_NAME = namedStatement(SEARCH_INDEX_SQL).name;

/** An entry as the SQL builds it: the response fields without searchString, plus its terms. */
export type Raw<T> = Omit<T, 'searchString'> & { terms: (string | null)[] };

/** The facts of a thread's unit that decide whether the caller may read it. */
export interface ThreadAccess {
  is_member: boolean;
  is_admin: boolean;
  has_moderation_group: boolean;
  is_moderation_group_admin: boolean;
}

/** A chat as the SQL builds it: its own name (or none), members in name order, no terms. */
export type ChatRow = Omit<SearchChat, 'searchString' | 'name'> & {
  name: string | null;
  sort_at: string;
};

export interface SearchIndexRow {
  /** The version of the data the index was built from (docs/design.md §3.12). */
  version: string;
  regions: Raw<SearchRegion>[];
  working_groups: Raw<SearchWorkingGroup>[];
  stores: Raw<SearchStore>[];
  food_share_points: Raw<SearchFoodSharePoint>[];
  chats: ChatRow[];
  threads: (Raw<SearchThread> & ThreadAccess)[];
  users: Raw<SearchUser>[];
  mails: Raw<SearchMail>[];
  events: Raw<SearchEvent>[];
  polls: Raw<SearchPoll>[];
}

/**
 * The index of the caller, whether orga, with the platform's mail host completing the units'
 * mailbox names into addresses, and the version of its data. Prepared: some forty relations are
 * planned once per connection rather than on every page load.
 */
export function searchIndexQuery(
  actor: { id: number },
  isOrga: boolean,
  mailboxHost: string,
): SqlQuery<SearchIndexRow> {
  return {
    sql: SEARCH_INDEX_SQL,
    params: [actor.id, isOrga, mailboxHost],
  };
}

/** The version row: the data's version, and the caller's account when it is active. */
export interface SearchIndexVersionRow {
  version: string;
  id: number | null;
  role: Role | null;
  verified: boolean | null;
}

/**
 * The version of the index's data now (docs/design.md §3.12), to tell a kept index current, with
 * the caller's account as requireActor reads it (no row data: no active account): one statement
 * whether the kept index is sent or rebuilt.
 */
export function searchIndexVersionQuery(userId: number): SqlQuery<SearchIndexVersionRow> {
  return {
    sql: `select ${VERSION_OF_DATA} as version, u.id, u.role, u.verified
            from (select 1) one left join users u on u.id = ? and u.activated`,
    params: [userId],
  };
}
