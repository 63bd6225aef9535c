import { Type } from 'typebox';

/**
 * The form fields this server reads. Others are ignored (RFC 6749 3.2); a field sent twice
 * arrives as an array, fails here and is refused (RFC 6749 3.2: parameters at most once).
 */
export const TokenRequestSchema = Type.Object(
  {
    grant_type: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    redirect_uri: Type.Optional(Type.String()),
    code_verifier: Type.Optional(Type.String()),
    refresh_token: Type.Optional(Type.String()),
    device_code: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
  },
  { title: 'TokenRequest' },
);

/** RFC 6749 5.1 with OIDC Core 3.1.3.3. */
export const TokenResponseSchema = Type.Object(
  {
    access_token: Type.String({ description: 'RS256 JWT, typ at+jwt (RFC 9068)' }),
    token_type: Type.Union([Type.Literal('Bearer'), Type.Literal('DPoP')], {
      description: 'DPoP when a DPoP proof bound the access token to its key (RFC 9449 5)',
    }),
    expires_in: Type.Integer({ minimum: 1 }),
    refresh_token: Type.Optional(
      Type.String({ description: 'Encrypted; only for clients with the refresh_token grant' }),
    ),
    id_token: Type.Optional(Type.String()),
    scope: Type.String(),
  },
  { title: 'TokenResponse' },
);
