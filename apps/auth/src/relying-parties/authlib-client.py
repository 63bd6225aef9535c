"""A Python web app's sign-in with Authlib (Debian's python3-authlib), driven by
authlib-client.test.ts against the real server.

Discovery, an authorization URL with PKCE (S256) and a nonce, then, given the URL the browser
came back to, the code exchange, the ID token validated against the published JWKS
(authlib.jose with OIDC Core's CodeIDToken rules: iss, aud, exp, nonce, at_hash), userinfo and
a refresh. Talks on stdout in JSON lines: {"authorization_url"} first, then the outcome.
"""

import json
import sys
from urllib.parse import parse_qs, urlparse

import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt
from authlib.oidc.core import CodeIDToken

TIMEOUT = 10


def say(message):
    print(json.dumps(message), flush=True)


def validate_id_token(id_token, jwks, issuer, client_id, nonce, access_token):
    claims = jwt.decode(
        id_token,
        JsonWebKey.import_key_set(jwks),
        claims_cls=CodeIDToken,
        claims_options={"iss": {"essential": True, "value": issuer}},
        claims_params={"nonce": nonce, "client_id": client_id, "access_token": access_token},
    )
    claims.validate()
    return dict(claims)


def main():
    issuer, client_id, client_secret, redirect_uri = sys.argv[1:5]
    metadata = requests.get(f"{issuer}/.well-known/openid-configuration", timeout=TIMEOUT).json()
    if metadata["issuer"] != issuer:
        raise ValueError(f"discovery names issuer {metadata['issuer']}, not {issuer}")
    jwks = requests.get(metadata["jwks_uri"], timeout=TIMEOUT).json()

    session = OAuth2Session(
        client_id,
        client_secret,
        scope="openid profile email",
        redirect_uri=redirect_uri,
        code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_basic",
    )
    code_verifier = generate_token(48)
    nonce = generate_token(20)
    url, state = session.create_authorization_url(
        metadata["authorization_endpoint"], nonce=nonce, code_verifier=code_verifier
    )
    say({"authorization_url": url})

    callback = sys.stdin.readline().strip()
    # RFC 9207: the answer names the server that sent it (Authlib 1.2 does not check it).
    answered_by = parse_qs(urlparse(callback).query).get("iss", [None])[0]
    if answered_by != issuer:
        raise ValueError(f"authorization response from {answered_by}, not {issuer}")
    token = session.fetch_token(
        metadata["token_endpoint"],
        authorization_response=callback,
        state=state,
        code_verifier=code_verifier,
        timeout=TIMEOUT,
    )
    claims = validate_id_token(
        token["id_token"], jwks, issuer, client_id, nonce, token["access_token"]
    )
    userinfo = session.get(metadata["userinfo_endpoint"], timeout=TIMEOUT)
    userinfo.raise_for_status()

    refreshed = session.refresh_token(metadata["token_endpoint"], timeout=TIMEOUT)
    # The refreshed access token is the one the session now sends.
    after_refresh = session.get(metadata["userinfo_endpoint"], timeout=TIMEOUT)
    after_refresh.raise_for_status()

    say(
        {
            "id_token_claims": claims,
            "userinfo": userinfo.json(),
            "first_access_token": token["access_token"],
            "first_refresh_token": token["refresh_token"],
            "refreshed_access_token": refreshed["access_token"],
            "refreshed_refresh_token": refreshed.get("refresh_token"),
            "userinfo_after_refresh": after_refresh.json(),
        }
    )


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the test shows the failure as the library raised it
        say({"error": f"{type(error).__name__}: {error}"})
        sys.exit(1)
