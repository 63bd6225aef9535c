import { Type, type Static } from 'typebox';

/**
 * The parameters of RP-Initiated Logout 1.0 §2, by query (GET) or form body (POST). Unknown
 * parameters are ignored, so any name is accepted; lengths are bounded because the values are
 * echoed into the confirmation page and (state) into the client's redirect.
 */
export const LogoutParamsSchema = Type.Object({
  id_token_hint: Type.Optional(Type.String({ maxLength: 8000 })),
  logout_hint: Type.Optional(Type.String({ maxLength: 320 })),
  client_id: Type.Optional(Type.String({ maxLength: 100 })),
  post_logout_redirect_uri: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 1024 })),
  ui_locales: Type.Optional(Type.String({ maxLength: 200 })),
});
export type LogoutParams = Static<typeof LogoutParamsSchema>;

/**
 * What the confirmation form sends back: the request as it was checked (the client found from
 * the hint named by client_id, since the hint itself is not carried along), and the session's
 * CSRF token.
 */
export const LogoutConfirmationSchema = Type.Object({
  client_id: Type.Optional(Type.String({ maxLength: 100 })),
  post_logout_redirect_uri: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 1024 })),
  ui_locales: Type.Optional(Type.String({ maxLength: 200 })),
  csrf: Type.Optional(Type.String({ maxLength: 64 })),
});
export type LogoutConfirmation = Static<typeof LogoutConfirmationSchema>;

/** An empty value counts as absent (as at the authorization endpoint, RFC 6749 3.1). */
export function present(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
