#!/bin/sh
# First run of a new deployment, after `db migrate`: the working group that administers OAuth
# clients (6704, docs/domain.md), a first orga user who is its admin and so may use
# /admin/oauthclients, and a first OAuth client. Shared by the Kubernetes Job (first-run-job.yaml)
# and compose's `first-run` service; both run it in the CLI image.
#
# Safe to run again: what exists already is left as it is (an existing user keeps their
# password). The client is public (PKCE): a confidential client's secret is printed once, and a
# Job's output ends up in the cluster's logs. Create confidential clients at /admin/oauthclients
# as the orga user, where the secret is shown in the browser only.
#
# Reads FIRST_ORGA_EMAIL, FIRST_ORGA_FIRST_NAME, FIRST_ORGA_LAST_NAME, FIRST_ORGA_PASSWORD and,
# for the client (all or none), FIRST_CLIENT_ID, FIRST_CLIENT_NAME, FIRST_CLIENT_REDIRECT_URI;
# FIRST_CLIENT_SCOPES (default "openid profile email") and FIRST_CLIENT_GRANTS (default
# "authorization_code refresh_token"). FOODSHARE_CLI is the command of the CLI (the image's).
set -eu

OAUTH_CLIENT_ADMINISTRATION=6704
cli=${FOODSHARE_CLI:-node dist/main.js}

fail() {
  echo "first-run: $*" >&2
  exit 1
}

for name in FIRST_ORGA_EMAIL FIRST_ORGA_FIRST_NAME FIRST_ORGA_LAST_NAME FIRST_ORGA_PASSWORD; do
  eval "value=\${$name:-}"
  [ -n "$value" ] || fail "$name is not set"
done
# Handed to the CLI on stdin only: never an argument (the process list) nor the CLI's environment.
password=$FIRST_ORGA_PASSWORD
unset FIRST_ORGA_PASSWORD

# Runs a CLI command with --json. Succeeds when the command does, or when it fails with the error
# code $1, which means the thing exists already (`-`: the command has no such code); any other
# failure stops the script.
step() {
  exists_code=$1
  description=$2
  shift 2
  # stdout (the JSON result) is dropped: what matters is said below; stderr is kept for errors.
  # shellcheck disable=SC2086 # $cli is a command with its arguments
  if errors=$($cli "$@" --json 2>&1 >/dev/null); then
    echo "first-run: $description: done"
  else
    case $errors in
      *"\"code\":\"$exists_code\""*) echo "first-run: $description: exists already, left as it is" ;;
      *) fail "$description failed: $errors" ;;
    esac
  fi
}

step REGION_ID_TAKEN "working group $OAUTH_CLIENT_ADMINISTRATION (OAuth client administration)" \
  regions create --id "$OAUTH_CLIENT_ADMINISTRATION" --name 'OAuth client administration' \
  --type working-group

printf '%s\n' "$password" | step EMAIL_TAKEN "orga user $FIRST_ORGA_EMAIL" \
  users create --email "$FIRST_ORGA_EMAIL" --first-name "$FIRST_ORGA_FIRST_NAME" \
  --last-name "$FIRST_ORGA_LAST_NAME" --password-stdin --role orga --verified

# Idempotent in itself; makes the user a member of the group as well.
step - "$FIRST_ORGA_EMAIL as admin of working group $OAUTH_CLIENT_ADMINISTRATION" \
  admins add "$FIRST_ORGA_EMAIL" "$OAUTH_CLIENT_ADMINISTRATION"

if [ -z "${FIRST_CLIENT_ID:-}${FIRST_CLIENT_NAME:-}${FIRST_CLIENT_REDIRECT_URI:-}" ]; then
  echo "first-run: no FIRST_CLIENT_ID: no OAuth client created"
  exit 0
fi
for name in FIRST_CLIENT_ID FIRST_CLIENT_NAME FIRST_CLIENT_REDIRECT_URI; do
  eval "value=\${$name:-}"
  [ -n "$value" ] || fail "$name is not set (the client needs FIRST_CLIENT_ID, _NAME and _REDIRECT_URI)"
done
step CLIENT_ID_TAKEN "public OAuth client $FIRST_CLIENT_ID" \
  clients create --client-id "$FIRST_CLIENT_ID" --name "$FIRST_CLIENT_NAME" \
  --redirect-uri "$FIRST_CLIENT_REDIRECT_URI" \
  --scope "${FIRST_CLIENT_SCOPES:-openid profile email}" \
  --grant "${FIRST_CLIENT_GRANTS:-authorization_code refresh_token}"
