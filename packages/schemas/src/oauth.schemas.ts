import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable } from './common.schemas.ts';

export const OAuthScopeSchema = Type.Union(
  [
    Type.Literal('openid'),
    Type.Literal('profile'),
    Type.Literal('email'),
    Type.Literal('regions'),
    Type.Literal('api'),
  ],
  { title: 'OAuthScope' },
);
export type OAuthScope = Static<typeof OAuthScopeSchema>;

export const OAuthGrantTypeSchema = Type.Union(
  [
    Type.Literal('authorization_code'),
    Type.Literal('refresh_token'),
    // RFC 8628: the device authorization grant (docs/oauth.md §12).
    Type.Literal('urn:ietf:params:oauth:grant-type:device_code'),
  ],
  { title: 'OAuthGrantType' },
);
export type OAuthGrantType = Static<typeof OAuthGrantTypeSchema>;

const idString = Type.String({ pattern: '^[1-9][0-9]*$' });

/** Claims by scope: openid always; the others only when their scope was granted. */
export const UserinfoSchema = Type.Object(
  {
    sub: Type.String({ pattern: '^[1-9][0-9]*$', description: 'The user id' }),
    preferred_username: Type.String({ description: 'First name followed by the user id' }),
    name: Type.Optional(Type.String()),
    given_name: Type.Optional(Type.String()),
    family_name: Type.Optional(Type.String()),
    picture: Type.Optional(Type.String({ format: 'uri' })),
    locale: Type.Optional(Type.Literal('de-DE')),
    email: Type.Optional(Type.String({ format: 'email' })),
    email_verified: Type.Optional(Type.Literal(true)),
    region_ids: Type.Optional(
      Type.Array(idString, { description: 'Regions the user is an active member of' }),
    ),
    region_ambassador: Type.Optional(
      Type.Array(idString, { description: 'Units the user administers' }),
    ),
    groups: Type.Optional(
      Type.Array(
        Type.String({
          pattern: '^(region|workgroup):[1-9][0-9]*(:(ambassador|admin))?$',
        }),
        {
          description:
            'The units of region_ids and region_ambassador by stable id, for role mapping: ' +
            'region:<id> and workgroup:<id> for a membership, region:<id>:ambassador and ' +
            'workgroup:<id>:admin for a unit the user administers',
        },
      ),
    ),
  },
  { title: 'Userinfo' },
);
export type Userinfo = Static<typeof UserinfoSchema>;

// client_id travels in query strings and forms; unreserved URI characters need no escaping.
const clientId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._~-]+$' });

// RFC 6749 3.1.2: a redirection endpoint is an absolute URI without a fragment.
const redirectUri = Type.String({ format: 'uri', maxLength: 2000, pattern: '^[^#]*$' });

// What the consent page shows of a client: https only, no character of markup (docs/oauth.md §2.11).
const displayUri = (description: string) =>
  Type.String({
    format: 'uri',
    maxLength: 2000,
    pattern: '^https://[^\\s<>"\'`]+$',
    description: `${description}; https only, never fetched by the server; default none`,
  });

const clientFields = {
  clientId,
  name: Type.String({ minLength: 1, maxLength: 100, description: 'Shown on the consent screen' }),
  confidential: Type.Boolean({
    description: 'Server applications hold a secret; public (browser, mobile) ones use PKCE',
  }),
  active: Type.Boolean(),
  redirectUris: Type.Array(redirectUri, { minItems: 1, maxItems: 20, uniqueItems: true }),
  postLogoutRedirectUris: Type.Optional(
    Type.Array(redirectUri, {
      maxItems: 20,
      uniqueItems: true,
      description: 'Where RP-Initiated Logout may return users, matched exactly; default none',
    }),
  ),
  requirePushedAuthorizationRequests: Type.Optional(
    Type.Boolean({ description: 'Authorization requests only through /oauth/par (RFC 9126)' }),
  ),
  requireDpop: Type.Optional(
    Type.Boolean({ description: 'Token requests only with a DPoP proof (RFC 9449)' }),
  ),
  backchannelLogoutUri: Type.Optional(
    Type.String({
      format: 'uri',
      maxLength: 2000,
      pattern: '^[^#]*$',
      description: 'Where Back-Channel Logout POSTs logout tokens; default none',
    }),
  ),
  logoUri: Type.Optional(displayUri("The client's logo, shown on the consent page")),
  clientUri: Type.Optional(displayUri("The client's home page, linked from the consent page")),
  policyUri: Type.Optional(displayUri("The client's privacy policy, linked from the consent page")),
  tosUri: Type.Optional(displayUri("The client's terms of service, linked from the consent page")),
  scopes: Type.Array(OAuthScopeSchema, {
    minItems: 1,
    uniqueItems: true,
    contains: Type.Literal('openid'),
    description: 'Must include openid',
  }),
  grantTypes: Type.Array(OAuthGrantTypeSchema, {
    minItems: 1,
    uniqueItems: true,
    contains: Type.Literal('authorization_code'),
    description:
      'authorization_code, optionally refresh_token and urn:ietf:params:oauth:grant-type:device_code',
  }),
  requiredRegionIds: Type.Array(Id(), {
    uniqueItems: true,
    description: 'Only members of one of these regions may use the client; empty means everybody',
  }),
};

/** A registered client as the admin area shows it; the secret is never part of it. */
export const OAuthClientSchema = Type.Object(
  {
    ...clientFields,
    changedBy: Nullable(Id({ description: 'The user who last changed the client' })),
    changedAt: DateTime(),
  },
  { title: 'OAuthClient' },
);
export type OAuthClient = Static<typeof OAuthClientSchema>;

/** What an administrator submits to create or change a client. */
export const OAuthClientBodySchema = Type.Object(clientFields, {
  title: 'OAuthClientBody',
  additionalProperties: false,
});
export type OAuthClientBody = Static<typeof OAuthClientBodySchema>;

/** The answer to creating a client (or rotating its secret): the only time the secret is shown. */
export const OAuthClientWithSecretSchema = Type.Object(
  {
    client: OAuthClientSchema,
    secret: Nullable(
      Type.String({
        pattern: '^[0-9a-f]{64}$',
        description: '256 random bits as hex; null for a public client',
      }),
    ),
  },
  { title: 'OAuthClientWithSecret' },
);
export type OAuthClientWithSecret = Static<typeof OAuthClientWithSecretSchema>;
