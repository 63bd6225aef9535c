import { type Static, type TProperties, Type } from 'typebox';
import { DateTime, Id, Nullable, SqlDateTime } from './common.schemas.ts';
import { CooperationStatusSchema, StoreTeamStatusSchema } from './store.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

const searchString = Type.String({
  description: 'Semicolon-separated search terms, ASCII-folded forms included (`Münster;muenster`)',
});

function entry<P extends TProperties>(title: string, properties: P) {
  return Type.Object({ id: Id(), name: Type.String(), searchString, ...properties }, { title });
}

/** A unit's mail address (`musterstadt@<mail host>`), empty for a unit without a mailbox. */
const unitEmail = Type.String({
  description: 'Mailbox address with the mail host; empty without one',
});

export const SearchRegionSchema = entry('SearchRegion', {
  email: unitEmail,
  parentId: Nullable(Id()),
  parentName: Nullable(Type.String()),
  isMember: Type.Boolean(),
  ambassadors: Type.Array(UserStubSchema),
});
export type SearchRegion = Static<typeof SearchRegionSchema>;

export const SearchWorkingGroupSchema = entry('SearchWorkingGroup', {
  email: unitEmail,
  parentId: Nullable(Id()),
  parentName: Nullable(Type.String()),
  isMember: Type.Boolean(),
  isAdmin: Type.Boolean(),
  admins: Type.Array(UserStubSchema),
});
export type SearchWorkingGroup = Static<typeof SearchWorkingGroupSchema>;

export const SearchStoreSchema = entry('SearchStore', {
  cooperationStatus: CooperationStatusSchema,
  street: Nullable(Type.String()),
  zipCode: Nullable(Type.String()),
  city: Nullable(Type.String()),
  regionId: Id(),
  regionName: Type.String(),
  membershipStatus: StoreTeamStatusSchema,
  isManager: Type.Boolean(),
  chainName: Nullable(Type.String()),
});
export type SearchStore = Static<typeof SearchStoreSchema>;

export const SearchFoodSharePointSchema = entry('SearchFoodSharePoint', {
  street: Nullable(Type.String()),
  zipCode: Nullable(Type.String()),
  city: Nullable(Type.String()),
  regionId: Id(),
  regionName: Type.String(),
});
export type SearchFoodSharePoint = Static<typeof SearchFoodSharePointSchema>;

// A conversation without a name is called by its other members' first names; an empty one has
// no last message.
export const SearchChatSchema = entry('SearchChat', {
  lastMessageSentAt: Nullable(DateTime()),
  lastFoodsaverId: Nullable(Id()),
  lastFoodsaverName: Nullable(Type.String()),
  lastMessage: Nullable(Type.String()),
  members: Type.Array(UserStubSchema),
  memberCount: Type.Integer({ minimum: 0 }),
});
export type SearchChat = Static<typeof SearchChatSchema>;

export const SearchThreadSchema = entry('SearchThread', {
  lastPostSentAt: DateTime(),
  pinnedLevel: Type.Integer({ minimum: 0 }),
  isClosed: Type.Boolean(),
  isInsideAmbassadorForum: Type.Boolean(),
  postId: Id({ description: 'The last post of the thread' }),
  regionId: Id(),
  regionName: Type.String(),
  body: Type.String(),
  relevance: Type.Number(),
});
export type SearchThread = Static<typeof SearchThreadSchema>;

/** A confirmed buddy; the index carries nobody's last name, phone number or mail address. */
export const SearchUserSchema = entry('SearchUser', {
  avatar: Nullable(Type.String()),
  lastName: Nullable(Type.String({ description: 'Always null' })),
  mobile: Nullable(Type.String({ description: 'Always null' })),
  isBuddy: Type.Boolean(),
  isVerified: Type.Boolean(),
  regionId: Nullable(Id({ description: 'Home region' })),
  regionName: Nullable(Type.String()),
  email: Nullable(Type.String({ description: 'Always null' })),
});
export type SearchUser = Static<typeof SearchUserSchema>;

export const SearchMailSchema = entry('SearchMail', {
  senderMail: Type.String(),
  senderName: Nullable(Type.String()),
  recipientMail: Type.String(),
  recipientName: Nullable(Type.String()),
  recipientCount: Type.String({ pattern: '^\\d+$' }),
  hasAttachments: Type.Boolean(),
  sentAt: SqlDateTime(),
  folder: Type.Integer(),
});
export type SearchMail = Static<typeof SearchMailSchema>;

export const EventInvitationStatusSchema = Type.Union(
  [
    Type.Literal('invited'),
    Type.Literal('accepted'),
    Type.Literal('maybe'),
    Type.Literal('wont_join'),
  ],
  { title: 'EventInvitationStatus' },
);

export const SearchEventSchema = entry('SearchEvent', {
  locationName: Nullable(Type.String()),
  status: EventInvitationStatusSchema,
  startAt: DateTime(),
  endAt: DateTime(),
  locationType: Type.Integer(),
  regionId: Id(),
  regionName: Type.String(),
});
export type SearchEvent = Static<typeof SearchEventSchema>;

export const SearchPollSchema = entry('SearchPoll', {
  startAt: SqlDateTime(),
  endAt: SqlDateTime(),
  regionId: Id(),
  regionName: Type.String(),
  hasVoted: Type.Boolean(),
});
export type SearchPoll = Static<typeof SearchPollSchema>;

/** Everything the logged-in user can search for, and nothing of anybody else. */
export const SearchIndexSchema = Type.Object(
  {
    regions: Type.Array(SearchRegionSchema),
    workingGroups: Type.Array(SearchWorkingGroupSchema),
    stores: Type.Array(SearchStoreSchema),
    foodSharePoints: Type.Array(SearchFoodSharePointSchema),
    chats: Type.Array(SearchChatSchema),
    threads: Type.Array(SearchThreadSchema),
    users: Type.Array(SearchUserSchema),
    mails: Type.Array(SearchMailSchema),
    events: Type.Array(SearchEventSchema),
    polls: Type.Array(SearchPollSchema),
  },
  { title: 'SearchIndex' },
);
export type SearchIndex = Static<typeof SearchIndexSchema>;
