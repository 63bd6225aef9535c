import { type Static, Type } from 'typebox';
import { DateTime, Id, MAX_ID, Nullable, SPACE_CHARACTERS } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

/** 0 not cooperating, 1 waiting, 2 cooperating, 3 insufficient branches, 4 closed. */
export const ChainStatusSchema = Type.Integer({ minimum: 0, maximum: 4, title: 'ChainStatus' });

const privileged = 'null unless the caller is orga, in the store-chain group or a KAM of the chain';

export const StoreChainSchema = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    status: ChainStatusSchema,
    headquartersZip: Type.String(),
    headquartersCity: Type.String(),
    headquartersCountry: Type.String(),
    allowPress: Type.Boolean(),
    forumThread: Nullable(Id({ description: privileged })),
    notes: Nullable(Type.String({ description: privileged })),
    commonStoreInformation: Type.String(),
    estimatedStoreCount: Nullable(Type.Integer({ minimum: 0, description: privileged })),
    modificationDate: DateTime(),
    regionId: Nullable(Id({ description: privileged })),
  },
  { title: 'StoreChain' },
);
export type StoreChain = Static<typeof StoreChainSchema>;

export const StoreChainReadSchema = Type.Object(
  {
    chain: StoreChainSchema,
    storeCount: Nullable(Type.Integer({ minimum: 0, description: privileged })),
  },
  { title: 'StoreChainRead' },
);
export type StoreChainRead = Static<typeof StoreChainReadSchema>;

// A name is shown in lists and e-mails as plain text: no markup, no line breaks, not blank
// (blank by the white space of SPACE_CHARACTERS, as everywhere).
const CHAIN_NAME_PATTERN = `^(?![${SPACE_CHARACTERS}]*$)[^<>\\n\\v\\f\\r\\u0085\\u2028\\u2029]+$`;

/** Every field optional, at least one present; a patch that changes nothing is a 400 later. */
export const StoreChainUpdateBodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, pattern: CHAIN_NAME_PATTERN })),
    status: Type.Optional(ChainStatusSchema),
    headquartersZip: Type.Optional(Type.String({ minLength: 1, maxLength: 5 })),
    headquartersCity: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    headquartersCountry: Type.Optional(Type.String({ maxLength: 50 })),
    allowPress: Type.Optional(Type.Boolean()),
    forumThread: Type.Optional(Id({ description: 'A thread of the store-chain group forum' })),
    notes: Type.Optional(Type.String({ maxLength: 200 })),
    commonStoreInformation: Type.Optional(Type.String({ maxLength: 16_000 })),
    kams: Type.Optional(
      Type.Array(Id(), {
        uniqueItems: true,
        maxItems: 100,
        description: 'User ids of key account managers; members of the store-chain group',
      }),
    ),
    estimatedStoreCount: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })),
  },
  { title: 'StoreChainUpdateBody', additionalProperties: false, minProperties: 1 },
);
export type StoreChainUpdateBody = Static<typeof StoreChainUpdateBodySchema>;

/** The chain's key account managers, by id; for orga, the store-chain group and the KAMs. */
export const StoreChainKamsSchema = Type.Array(UserStubSchema, { title: 'StoreChainKams' });
export type StoreChainKams = Static<typeof StoreChainKamsSchema>;
