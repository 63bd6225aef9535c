import { type Static, Type } from 'typebox';
import { DateTime } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

/** A banana as shown on the recipient's profile; `user` is the sender. */
export const BananaSchema = Type.Object(
  { message: Type.String(), user: UserStubSchema, time: DateTime() },
  { title: 'Banana' },
);
export type Banana = Static<typeof BananaSchema>;

/** The bananas a user received, newest first. */
export const BananaListSchema = Type.Array(BananaSchema, { title: 'BananaList' });
export type BananaList = Static<typeof BananaListSchema>;

export const BANANA_MESSAGE_MAX_LENGTH = 5000;

/**
 * The 100-character minimum is a rule of the domain answered with 422, not a malformed
 * request, so the schema only bounds the length.
 */
export const BananaBodySchema = Type.Object(
  { message: Type.String({ maxLength: BANANA_MESSAGE_MAX_LENGTH }) },
  { title: 'BananaBody', additionalProperties: false },
);
export type BananaBody = Static<typeof BananaBodySchema>;
