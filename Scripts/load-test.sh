#!/usr/bin/env bash
# Load on the sync server, bounded and on loopback (docs/performance.md, "The server under load"):
# DEVICES simulated devices (default 50), each a database of its own, signed in as one of five
# users and joined to one shared ledger, for DURATION seconds (default 60). Each device, in a loop, adds an
# entry (`capital spend`), syncs (`capital sync`: a push, then a pull) and asks the server what it
# can spend (GET …/can-spend?why, the server's copy brought up to the log's head first).
# Reports, from the server's request log: the p50/p95/p99 time the server took to answer a push
# (POST …/changes), a pull (GET …/changes) and a can-spend; the errors (answers of 500 or more, and device
# commands that failed); the changes lost (after the load, every device syncs until it has
# nothing to receive, and each must hold every entry made on any device); the server's peak
# memory (VmHWM). The server keeps its data in SQLite, or with DATABASE=postgres://USER@HOST/DB
# in that PostgreSQL database (empty; migrated here).
# Needs release builds of capital and capital-server (BIN, default .build/release). The devices'
# processes share the machine with the server: on 2 cores the times include that contention,
# unless SERVER_CPUS and DEVICE_CPUS (taskset's lists: `0` and `1`) keep them apart, as a server
# and the phones that use it are apart (start PostgreSQL under `taskset -c 0` too, then).
set -euo pipefail
BIN=${BIN:-.build/release}
C="$PWD/$BIN/capital"
S="$PWD/$BIN/capital-server"
DEVICES=${DEVICES:-50}
DURATION=${DURATION:-60}
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
password='Load-test1!'

source "$(dirname "$0")/lib/server.sh"
server_storage
for user in u1 u2 u3 u4 u5; do
    printf '%s\n' "$password" | "$S" user add "$user" "${storage[@]}" --password-stdin --scrypt-log-n 12 > /dev/null
done
server_start

# The shared ledger: made by u1 on the first device, every other user a member.
origin="$work/d0.sqlite"
"$C" --db "$origin" init > /dev/null
"$C" --db "$origin" account add Cash --kind cash --default > /dev/null
printf '%s\n' "$password" | "$C" --db "$origin" sync login "$url" --user u1 --password-stdin > /dev/null
"$C" --db "$origin" sync create --name Load > /dev/null
ledger=$("$C" --db "$origin" sync status --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["ledger"])')
for user in u2 u3 u4 u5; do "$C" --db "$origin" sync share "$user" --role member > /dev/null; done
# Each user's access token, for the answers over HTTP.
for user in u1 u2 u3 u4 u5; do
    URL="$url" USER_NAME="$user" PASSWORD="$password" python3 -c '
import json, os, urllib.request
body = json.dumps({"user": os.environ["USER_NAME"], "password": os.environ["PASSWORD"]}).encode()
request = urllib.request.Request(os.environ["URL"] + "/v1/login", body, {"Capital-Protocol": "1", "Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(request))["access"])' > "$work/token-$user"
done

echo "load: $DEVICES devices joining ledger $ledger at $url"
for n in $(seq 1 "$DEVICES"); do
    db="$work/d$n.sqlite"
    printf '%s\n' "$password" | "$C" --db "$db" sync login "$url" --user "u$((n % 5 + 1))" --password-stdin > /dev/null
    "$C" --db "$db" sync join "$ledger" > /dev/null
    "$C" --db "$db" account edit Cash --default > /dev/null
done
start_line=$(($(wc -l < "$work/log") + 1))

device() { # N: adds an entry and syncs until the time is up; counts entries and failures
    local n=$1 db="$work/d$1.sqlite" made=0 failed=0
    while [ "$(date +%s)" -lt "$end" ]; do
        if "$C" --db "$db" spend 1 Groceries --note "d$n-$made" > /dev/null 2>> "$work/errors"; then made=$((made + 1)); else failed=$((failed + 1)); fi
        "$C" --db "$db" sync > /dev/null 2>> "$work/errors" || failed=$((failed + 1))
        curl -sf -o /dev/null -H 'Capital-Protocol: 1' -H "Authorization: Bearer $(cat "$work/token-u$((n % 5 + 1))")" \
            "$url/v1/ledgers/$ledger/can-spend?why&default-account=Cash" 2>> "$work/errors" || failed=$((failed + 1))
    done
    echo "$made $failed" > "$work/count$n"
}

echo "load: $DEVICES devices adding and syncing for $DURATION s"
end=$(($(date +%s) + DURATION))
pids=()
for n in $(seq 1 "$DEVICES"); do
    device "$n" &
    pids+=($!)
    if [ -n "${DEVICE_CPUS:-}" ]; then taskset -p -c "$DEVICE_CPUS" "$!" > /dev/null; fi
done
wait "${pids[@]}"
end_line=$(wc -l < "$work/log")

# Every device syncs until nothing is left to receive; each must then hold every entry.
made=0
failed=0
for n in $(seq 1 "$DEVICES"); do
    read -r m f < "$work/count$n"
    made=$((made + m))
    failed=$((failed + f))
done
for round in 1 2; do
    for n in $(seq 1 "$DEVICES"); do "$C" --db "$work/d$n.sqlite" sync > /dev/null 2>> "$work/errors" || failed=$((failed + 1)); done
done
"$C" --db "$origin" sync > /dev/null
lost=0
for n in 0 $(seq 1 "$DEVICES"); do
    held=$("$C" --db "$work/d$n.sqlite" tx list --format json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
    [ "$held" -lt "$made" ] && lost=$((lost > made - held ? lost : made - held))
done
peak=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$server/status")

sed -n "${start_line},${end_line}p" "$work/log" | python3 -c '
import re, sys
times = {"push": [], "pull": [], "can-spend": []}
errors = 0
for line in sys.stdin:
    fields = dict(re.findall(r"(\w+)=(\S+)", line))
    if "status" not in fields: continue
    if int(fields["status"]) >= 500: errors += 1
    if re.fullmatch(r"/v1/ledgers/[^/]+/changes", fields.get("path", "")):
        times["push" if fields["method"] == "POST" else "pull"].append(int(fields["ms"]))
    if re.fullmatch(r"/v1/ledgers/[^/]+/can-spend", fields.get("path", "")):
        times["can-spend"].append(int(fields["ms"]))
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else 0
for kind, values in times.items():
    print(f"load: {kind}: {len(values)} requests, p50 {pct(values, 50)} ms, p95 {pct(values, 95)} ms, p99 {pct(values, 99)} ms")
print(f"load: server errors (5xx): {errors}")
'
echo "load: entries made $made; device commands failed $failed; changes lost $lost; server peak memory $((peak / 1024)) MB"
[ "$failed" -eq 0 ] && [ "$lost" -eq 0 ] || { echo "load: FAILED"; head -5 "$work/errors"; exit 1; }
