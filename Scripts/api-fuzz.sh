#!/usr/bin/env bash
# Fuzzes the server's HTTP API with schemathesis (PyPI) from its own OpenAPI document
# (GET /openapi.json), bounded and on loopback: a server of its own (SQLite in a temporary folder,
# or with DATABASE=postgres://… that database, migrated here) holding the sample household shared by
# anna (owner) with boris (member), every operation tried with at most EXAMPLES generated requests
# (default 25) as anna, its path's {ledger} the household and {user} boris. Every check schemathesis
# has runs but one: no answer of 500 or more; every status, content type, header and body as the
# document says; a request the document forbids refused; a missing required header refused; an
# undeclared method 405. Left out: that every request the document allows is accepted, since some
# refusals are the ledger's rules, which a schema cannot say (a horizon before today, an account
# the ledger does not have, a weak password: each a 400 or 422 naming its field). Exits non-zero on
# any failure, with schemathesis' report. Needs builds of capital and capital-server (BIN, default
# .build/debug).
set -euo pipefail
BIN=${BIN:-.build/debug}
C="$PWD/$BIN/capital"
S="$PWD/$BIN/capital-server"
EXAMPLES=${EXAMPLES:-25}
# SEED=N makes the run repeatable (CI gives one); without it schemathesis draws a new one.
SEED=${SEED:-}
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
password='Fuzz-test1!'

if ! command -v schemathesis > /dev/null; then
    # Debian's python is externally managed (PEP 668); older pips ignore these variables.
    PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check --no-input \
        --no-warn-script-location schemathesis > /dev/null
    PATH="$PATH:$HOME/.local/bin"
fi
source "$(dirname "$0")/lib/server.sh"
server_storage
for user in anna boris; do
    printf '%s\n' "$password" | "$S" user add "$user" "${storage[@]}" --password-stdin --scrypt-log-n 10 > /dev/null
done
server_start

db="$work/home.sqlite"
"$C" --db "$db" import samples/household.yaml > /dev/null
printf '%s\n' "$password" | "$C" --db "$db" sync login "$url" --user anna --password-stdin > /dev/null
"$C" --db "$db" sync create --name Household > /dev/null
"$C" --db "$db" sync share boris --role member > /dev/null
ledger=$("$C" --db "$db" sync status --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["ledger"])')
token=$(URL="$url" PASSWORD="$password" python3 -c '
import json, os, urllib.request
body = json.dumps({"user": "anna", "password": os.environ["PASSWORD"]}).encode()
request = urllib.request.Request(os.environ["URL"] + "/v1/login", body, {"Capital-Protocol": "1", "Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(request))["access"])')

cat > "$work/schemathesis.toml" << TOML
[parameters]
"path.ledger" = "$ledger"
"path.user" = "boris"
TOML

echo "api-fuzz: $EXAMPLES examples per operation against $url (ledger $ledger)"
# Signing out and disabling revoke the token every other request uses: they are tried last, by
# a second run, so that the first one's requests stay signed in.
common=(--header "Authorization: Bearer $token" --max-examples "$EXAMPLES"
    --checks all --exclude-checks positive_data_acceptance --workers 1 --request-timeout 30 ${SEED:+--seed "$SEED"})
schemathesis --no-color --config-file "$work/schemathesis.toml" run "$url/openapi.json" "${common[@]}" --exclude-operation-id logout --exclude-operation-id disableUser \
    --exclude-operation-id issueReset
