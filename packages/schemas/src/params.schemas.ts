import { type Static, Type } from 'typebox';
import { Id, MAX_ID } from './common.schemas.ts';

// The two identifier patterns of docs/spec.md §8. A path value that does not match names no
// resource, so routes answer 404 rather than 400 (docs/design.md §3.2).
export const POSITIVE_ID_PATTERN = '^[1-9][0-9]*$';
export const DIGITS_PATTERN = '^\\d+$';

/** A path segment holding a positive integer without leading zero (`[1-9][0-9]*`). */
export function PositiveIdParam(options: { description?: string } = {}) {
  return Type.String({ pattern: POSITIVE_ID_PATTERN, ...options });
}

/** A path segment holding digits (`\d+`), leading zeros and 0 included. */
export function DigitsParam(options: { description?: string } = {}) {
  return Type.String({ pattern: DIGITS_PATTERN, ...options });
}

/**
 * The number a matched id segment names, or undefined when it overflows a 32-bit id: a regex
 * cannot bound the value, and such an id names no row (404, docs/design.md §3.2).
 */
export function parseIdParam(value: string): number | undefined {
  if (!/^\d+$/.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) && id <= MAX_ID ? id : undefined;
}

export const PostIdParamsSchema = Type.Object(
  { postId: PositiveIdParam() },
  { title: 'PostIdParams' },
);
export type PostIdParams = Static<typeof PostIdParamsSchema>;

export const ConversationIdParamsSchema = Type.Object(
  { conversationId: DigitsParam() },
  { title: 'ConversationIdParams' },
);
export type ConversationIdParams = Static<typeof ConversationIdParamsSchema>;

export const UserIdParamsSchema = Type.Object({ userId: Id() }, { title: 'UserIdParams' });
export type UserIdParams = Static<typeof UserIdParamsSchema>;

export const GroupApplicationParamsSchema = Type.Object(
  { groupId: PositiveIdParam(), userId: PositiveIdParam() },
  { title: 'GroupApplicationParams' },
);
export type GroupApplicationParams = Static<typeof GroupApplicationParamsSchema>;

export const QuizIdParamsSchema = Type.Object(
  { quizId: PositiveIdParam() },
  { title: 'QuizIdParams' },
);
export type QuizIdParams = Static<typeof QuizIdParamsSchema>;

/**
 * RFC 3339 section 5.6 `date-time`, strictly: `T` between date and time, seconds present, an
 * offset `Z` or `+hh:mm` (the letters in either case, as 5.6 allows). The `date-time` format
 * rejects impossible dates (Feb 30); the pattern rejects what that format lets through (a space
 * for `T`, `+0100`, leap second 60, which no JavaScript Date can hold).
 */
export const RFC3339_DATE_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}[Tt]([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d+)?([Zz]|[+-]([01]\\d|2[0-3]):[0-5]\\d)$';

/** A path segment holding an RFC 3339 date-time with offset, e.g. `2026-11-22T04:53:00+01:00`. */
export function DateTimeParam(options: { description?: string } = {}) {
  return Type.String({ format: 'date-time', pattern: RFC3339_DATE_TIME_PATTERN, ...options });
}

export const StoreLogParamsSchema = Type.Object(
  {
    storeId: Id(),
    fromDate: DateTimeParam({
      description: 'Start of the window (inclusive), at most 6 months ago',
    }),
    toDate: DateTimeParam({ description: 'End of the window (inclusive)' }),
    storeLogActionIds: Type.String({
      pattern: '^\\d+(,\\d+)*$',
      maxLength: 200,
      description: 'Comma-separated store log action type ids',
    }),
  },
  { title: 'StoreLogParams' },
);
export type StoreLogParams = Static<typeof StoreLogParamsSchema>;

// The store log's paging (docs/domain.md §3.8: default 100, offset 0), shared by every list that
// grows with the data. The reference platform gives no upper limit; ours keeps one page one
// bounded query.
export const PAGE_MAX_LIMIT = 1000;
export const PAGE_DEFAULT_LIMIT = 100;

export const PageQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: PAGE_MAX_LIMIT,
        default: PAGE_DEFAULT_LIMIT,
      }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, default: 0 })),
  },
  { title: 'PageQuery', description: 'limit 1 to 1000 (default 100), offset from 0' },
);
export type PageQuery = Static<typeof PageQuerySchema>;

export const ChainIdParamsSchema = Type.Object(
  { chainId: PositiveIdParam() },
  { title: 'ChainIdParams' },
);
export type ChainIdParams = Static<typeof ChainIdParamsSchema>;

export const ReadStatusQuerySchema = Type.Object(
  {
    read: Type.Optional(
      // `0` and `1` are what clients send; any other text is accepted and reads as unread.
      Type.Union([Type.Literal('0'), Type.Literal('1'), Type.String()], {
        description: '1 marks the conversation read; any other value, or none, unread',
      }),
    ),
  },
  { title: 'ReadStatusQuery' },
);
export type ReadStatusQuery = Static<typeof ReadStatusQuerySchema>;

/** The recipient comes first in the path, the sender second (docs/spec.md §4.1, row 13). */
export const BananaParamsSchema = Type.Object(
  { recipientId: Id(), senderId: Id() },
  { title: 'BananaParams' },
);
export type BananaParams = Static<typeof BananaParamsSchema>;

export const QuizAnswerParamsSchema = Type.Object(
  { quizId: DigitsParam(), questionId: DigitsParam(), answerId: DigitsParam() },
  { title: 'QuizAnswerParams' },
);
export type QuizAnswerParams = Static<typeof QuizAnswerParamsSchema>;

/** docs/spec.md §4.1 types this region id as an integer (pattern `\d+`), unlike row 16's. */
export const RegionOptionsParamsSchema = Type.Object(
  { regionId: Type.Integer({ minimum: 0, maximum: MAX_ID }) },
  { title: 'RegionOptionsParams' },
);
export type RegionOptionsParams = Static<typeof RegionOptionsParamsSchema>;

export const RegionIdParamsSchema = Type.Object(
  { regionId: PositiveIdParam() },
  { title: 'RegionIdParams' },
);
export type RegionIdParams = Static<typeof RegionIdParamsSchema>;

/**
 * The user of `/api/users/{recipientId}/bananas`: one name and one type in every operation of
 * that path and of row 13's beneath it, an integer as row 13 has it (OpenAPI refuses two paths
 * that differ only in a parameter's name, and a client generator would type the same user once
 * as text and once as a number). Row 17's `[1-9][0-9]*` still holds for giving one
 * (bananas.routes.ts).
 */
export const RecipientIdParamsSchema = Type.Object(
  { recipientId: Id() },
  { title: 'RecipientIdParams' },
);
export type RecipientIdParams = Static<typeof RecipientIdParamsSchema>;

export const StoreIdParamsSchema = Type.Object(
  { storeId: PositiveIdParam() },
  { title: 'StoreIdParams' },
);
export type StoreIdParams = Static<typeof StoreIdParamsSchema>;

/** A pending request to join a store team, named by the store and the applicant. */
export const StoreTeamRequestParamsSchema = Type.Object(
  { storeId: PositiveIdParam(), userId: PositiveIdParam() },
  { title: 'StoreTeamRequestParams' },
);
export type StoreTeamRequestParams = Static<typeof StoreTeamRequestParamsSchema>;
