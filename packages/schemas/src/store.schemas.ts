import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

/** 0 unclear, 1 no contact, 2 in negotiation, 4 does not want to, 5 cooperating, 6 gives to another charity, 7 permanently closed. */
export const CooperationStatusSchema = Type.Enum([0, 1, 2, 4, 5, 6, 7], {
  title: 'CooperationStatus',
});

/** 0 applied, 1 member, 2 standby, 3 invited. */
export const StoreTeamStatusSchema = Type.Enum([0, 1, 2, 3], { title: 'StoreTeamStatus' });

export const StoreTeamRequestSchema = Type.Object(
  {
    user: UserStubSchema,
    firstName: Type.String({ description: 'The stub’s name is the full name; this the first' }),
    verified: Type.Boolean(),
    distanceInKm: Type.Integer({
      minimum: -1,
      description:
        'Rounded km from the applicant to the store; -1 when the applicant or the store has no address',
    }),
    date: DateTime({ description: 'When the request was made' }),
    message: Nullable(Type.String()),
  },
  { title: 'StoreTeamRequest' },
);
export type StoreTeamRequest = Static<typeof StoreTeamRequestSchema>;

export const StoreTeamRequestListSchema = Type.Array(StoreTeamRequestSchema, {
  title: 'StoreTeamRequestList',
});
export type StoreTeamRequestList = Static<typeof StoreTeamRequestListSchema>;

/** The answer to accepting or declining a request to join a store team. */
export const StoreTeamRequestDecisionSchema = Type.Object(
  {
    storeId: Id(),
    userId: Id(),
    decision: Type.Union([Type.Literal('accepted'), Type.Literal('declined')]),
    decidedAt: DateTime(),
  },
  { title: 'StoreTeamRequestDecision' },
);
export type StoreTeamRequestDecision = Static<typeof StoreTeamRequestDecisionSchema>;
