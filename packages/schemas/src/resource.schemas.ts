import { type Static, Type } from 'typebox';
import { Id } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

/** Something a user lends or shares. */
export const ResourceSchema = Type.Object(
  {
    id: Id(),
    name: Type.String({ maxLength: 35 }),
    description: Type.String(),
    user: UserStubSchema,
    regionId: Id(),
    isHomeRegion: Type.Boolean(),
    isUserActive: Type.Boolean(),
    isPrivate: Type.Boolean({ description: "Visible to the owner's buddies only" }),
    isFavorite: Type.Boolean(),
    openness: Type.Integer({ minimum: 1, maximum: 5 }),
  },
  { title: 'Resource' },
);
export type Resource = Static<typeof ResourceSchema>;

export const OwnResourcesSchema = Type.Array(ResourceSchema, { title: 'OwnResources' });
export type OwnResources = Static<typeof OwnResourcesSchema>;
