#!/usr/bin/env bash
# Sync's speed with real processes on loopback (docs/performance.md, "Sync: the server"):
#   push    — `capital sync create` sending a ledger of about 10 000 changes (wall time);
#   join    — a new device joining a ledger of about 100 000 changes (wall time, peak memory);
#   idle    — `capital sync` with nothing to do (hyperfine, whole process);
#   wire    — bytes on the wire per change, from the server's request log (bodies as sent: compressed).
# Bounded: one server, two ledgers, a few dozen commands. Needs release builds of capital and
# capital-server (BIN, default .build/release) and hyperfine. The server keeps its data in SQLite,
# or with DATABASE=postgres://USER@HOST/DB in that PostgreSQL database (empty; migrated here).
set -euo pipefail
BIN=${BIN:-.build/release}
C="$PWD/$BIN/capital"
S="$PWD/$BIN/capital-server"
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
password='Speed-test1!'

source "$(dirname "$0")/lib/server.sh"
server_storage
printf '%s\n' "$password" | "$S" user add bench "${storage[@]}" --password-stdin > /dev/null
server_start

wire() { # bytes in and out of the server's log lines matching $1 since line $2
    tail -n +"$2" "$work/log" | grep -E "$1" | sed -n 's/.*bytes_in=\([0-9]*\) bytes_out=\([0-9?]*\) .*/\1 \2/p' |
        awk '{ i += $1; o += $2 } END { printf "%d %d\n", i, o }'
}

ledger() { # NAME HISTORY: a device database with a generated ledger, signed in, shared (timed)
    "$C" sample generate --rules 20 --years 1 --history "$2" --out "$work/$1.yaml" > /dev/null
    "$C" --db "$work/$1.sqlite" import "$work/$1.yaml" > /dev/null
    printf '%s\n' "$password" | "$C" --db "$work/$1.sqlite" sync login "$url" --user bench --password-stdin > /dev/null
}

# Push: about 10 000 changes (a transaction is three: header, postings, deleted). `sync create`
# records every record as the first change set, makes the server's ledger, pushes, pulls, compares.
ledger push 3300
before=$(wc -l < "$work/log")
start=$(date +%s.%N)
"$C" --db "$work/push.sqlite" sync create > /dev/null
end=$(date +%s.%N)
pushed=$(sqlite3 "$work/push.sqlite" "SELECT SUM(json_array_length(body, '\$.changes')) FROM changeSet")
read -r in out < <(wire 'method=POST ms=[0-9]* path=/v1/ledgers/[^/ ]*/changes ' "$((before + 1))")
echo "push: $pushed changes in $(echo "$end - $start" | bc) s (sync create: share, upload, pull, digest); $in B sent, $((in / pushed)) B per change"

# Join: about 100 000 changes.
ledger big 33000
"$C" --db "$work/big.sqlite" sync create > /dev/null
id=$("$C" --db "$work/big.sqlite" sync status --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["ledger"])')
total=$(sqlite3 "$work/big.sqlite" "SELECT SUM(json_array_length(body, '\$.changes')) FROM changeSet")
printf '%s\n' "$password" | "$C" --db "$work/phone.sqlite" sync login "$url" --user bench --password-stdin > /dev/null
before=$(wc -l < "$work/log")
/usr/bin/time -f "%e %M" -o "$work/time" "$C" --db "$work/phone.sqlite" sync join "$id" > /dev/null
read -r seconds kilobytes < "$work/time"
read -r in out < <(wire 'method=GET ms=[0-9]* path=/v1/ledgers' "$((before + 1))")
echo "join: $total changes in $seconds s, peak $((kilobytes / 1024)) MB; $out B received, $((out / total)) B per change"

# Idle: nothing to send, nothing to receive (the first sync records that the ledgers agree).
"$C" --db "$work/phone.sqlite" sync > /dev/null
hyperfine -N --warmup 3 --runs 30 "$C --db $work/phone.sqlite sync" 2>&1 | grep -E "Time|Range"
