import { type Static, Type } from 'typebox';
import { Id, Nullable } from './common.schemas.ts';

/** How a user appears wherever they are embedded; `name` is the first name only. */
export const UserStubSchema = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    avatar: Nullable(Type.String({ description: '`/api/uploads/<uuid>`, null without a photo' })),
    isSleeping: Type.Boolean({ description: 'The user has paused their activity' }),
  },
  { title: 'UserStub' },
);
export type UserStub = Static<typeof UserStubSchema>;

/** The user stub with the contact fields the report team needs. */
export const ReportUserSchema = Type.Object(
  { ...UserStubSchema.properties, mail: Type.String(), lastName: Type.String() },
  { title: 'ReportUser' },
);
export type ReportUser = Static<typeof ReportUserSchema>;
