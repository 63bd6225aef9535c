import { type Static, Type } from 'typebox';
import { DateTime, Id } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

/** A pending application to a working group, as its admins see it. */
export const WorkGroupApplicationSchema = Type.Object(
  {
    user: UserStubSchema,
    message: Type.String({ description: 'What the applicant wrote; may be empty' }),
    appliedAt: DateTime(),
  },
  { title: 'WorkGroupApplication' },
);
export type WorkGroupApplication = Static<typeof WorkGroupApplicationSchema>;

export const WorkGroupApplicationListSchema = Type.Array(WorkGroupApplicationSchema, {
  title: 'WorkGroupApplicationList',
});
export type WorkGroupApplicationList = Static<typeof WorkGroupApplicationListSchema>;

/** Declining is idempotent: `declined` is false when there was no pending application. */
export const WorkGroupApplicationDeclinedSchema = Type.Object(
  {
    groupId: Id(),
    userId: Id(),
    declined: Type.Boolean({ description: 'A pending application existed and was deleted' }),
  },
  { title: 'WorkGroupApplicationDeclined' },
);
export type WorkGroupApplicationDeclined = Static<typeof WorkGroupApplicationDeclinedSchema>;
