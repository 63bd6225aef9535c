import { Type, type Static } from 'typebox';

export const IntrospectionRequestSchema = Type.Object(
  {
    token: Type.Optional(Type.String()),
    token_type_hint: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
  },
  { title: 'IntrospectionRequest' },
);

/**
 * RFC 7662 2.2. An inactive token is `{ "active": false }` and nothing else, so that the answer
 * tells nothing of why. No `username`: the tokens carry none, and introspection repeats only
 * what the token itself says (docs/oauth.md §6.8).
 */
export const IntrospectionResponseSchema = Type.Object(
  {
    active: Type.Boolean(),
    scope: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    token_type: Type.Optional(Type.Union([Type.Literal('Bearer'), Type.Literal('DPoP')])),
    exp: Type.Optional(Type.Integer()),
    iat: Type.Optional(Type.Integer()),
    nbf: Type.Optional(Type.Integer()),
    sub: Type.Optional(Type.String()),
    aud: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
    iss: Type.Optional(Type.String()),
    jti: Type.Optional(Type.String()),
    /** RFC 9449 6.2: the DPoP key the token is bound to. */
    cnf: Type.Optional(Type.Object({ jkt: Type.String() })),
  },
  { title: 'IntrospectionResponse', additionalProperties: false },
);

export type IntrospectionResponse = Static<typeof IntrospectionResponseSchema>;
