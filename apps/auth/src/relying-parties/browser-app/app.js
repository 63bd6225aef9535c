// A single-page app on its own origin signing its users in with oidc-client-ts (authorization
// code with PKCE, public client), as its documentation sets one up. The test drives it through
// `window.rp` and reads what it shows in #state.
/* global oidc, RP_CONFIG, window, document, location, fetch */
const manager = new oidc.UserManager({
  authority: RP_CONFIG.issuer,
  client_id: RP_CONFIG.clientId,
  redirect_uri: `${location.origin}/callback.html`,
  post_logout_redirect_uri: `${location.origin}/signed-out.html`,
  response_type: 'code',
  scope: 'openid profile email',
  loadUserInfo: true,
  automaticSilentRenew: false,
  userStore: new oidc.WebStorageStateStore({ store: window.localStorage }),
});

function show(state) {
  document.getElementById('state').textContent = JSON.stringify(state);
  document.body.dataset.ready = state.kind;
}

function tokensOf(user) {
  return {
    accessToken: user.access_token,
    refreshToken: user.refresh_token,
    idToken: user.id_token,
    profile: user.profile,
  };
}

window.rp = {
  signIn: () => manager.signinRedirect(),
  // With a refresh token, signinSilent refreshes at the token endpoint (no iframe).
  refresh: async () => tokensOf(await manager.signinSilent()),
  // The access token the app holds now, sent to userinfo from this origin (CORS).
  userinfo: async () => {
    const user = await manager.getUser();
    const endpoint = await manager.metadataService.getUserInfoEndpoint();
    const answer = await fetch(endpoint, {
      headers: { authorization: `Bearer ${user.access_token}` },
    });
    return { status: answer.status, body: await answer.json() };
  },
  signOut: () => manager.signoutRedirect(),
};

if (location.pathname === '/callback.html') {
  manager
    .signinRedirectCallback()
    .then((user) => show({ kind: 'signed-in', ...tokensOf(user) }))
    .catch((error) => show({ kind: 'error', message: String(error) }));
} else {
  show({ kind: location.pathname === '/signed-out.html' ? 'signed-out' : 'home' });
}
