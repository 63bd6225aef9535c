import { type Static, Type } from 'typebox';
import { DateTime, Nullable } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

/** 1 request to join ... 20 invitation declined (docs/domain.md §3.8). */
export const StoreLogActionSchema = Type.Integer({
  minimum: 1,
  maximum: 20,
  title: 'StoreLogAction',
});

export const StoreLogEntrySchema = Type.Object(
  {
    performedAt: DateTime(),
    actionType: StoreLogActionSchema,
    // Null once the user's account is deleted: the log outlives the people in it.
    actor: Nullable(UserStubSchema),
    target: Nullable(UserStubSchema),
    dateReference: Nullable(DateTime({ description: 'The pickup slot the action refers to' })),
    content: Nullable(Type.String()),
    reason: Nullable(Type.String()),
  },
  { title: 'StoreLogEntry' },
);
export type StoreLogEntry = Static<typeof StoreLogEntrySchema>;

/** Newest first. */
export const StoreLogSchema = Type.Array(StoreLogEntrySchema, { title: 'StoreLog' });
export type StoreLog = Static<typeof StoreLogSchema>;
