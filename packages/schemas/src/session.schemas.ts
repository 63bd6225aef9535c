import { type Static, Type } from 'typebox';
import { Id, Nullable } from './common.schemas.ts';

export const LoginBodySchema = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 255 }),
    // The upper bound keeps a login from hashing megabytes; no real password comes near it.
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    rememberMe: Type.Optional(
      Type.Boolean({ default: false, description: 'Keeps the session 30 days instead of 24 h' }),
    ),
  },
  { title: 'LoginBody', additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

/** 0 foodsharer, 1 foodsaver, 2 store manager, 3 ambassador, 4 orga. */
export const RoleSchema = Type.Integer({ minimum: 0, maximum: 4, title: 'Role' });

export const CurrentUserSchema = Type.Object(
  {
    id: Id(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String({ format: 'email' }),
    role: RoleSchema,
    verified: Type.Boolean(),
    isSleeping: Type.Boolean(),
    avatar: Nullable(Type.String()),
    homeRegionId: Nullable(Id()),
  },
  { title: 'CurrentUser' },
);
export type CurrentUser = Static<typeof CurrentUserSchema>;
