#!/usr/bin/env bash
# The restore drill of docs/server.md ("Backups"), performed: for each storage, a server with a
# shared household, a backup taken while it serves, the server's data destroyed, the backup
# restored, the server started on it, and then checked: a new device joining from the restored
# server holds the same transactions as the device that shared them, and that device's next sync
# finds its ledger equal to the server's.
#   Scripts/restore-drill.sh [sqlite] [postgres]       (default: both; postgres where installed)
# SQLite: an online backup with sqlite3's .backup (the server keeps serving), copied back.
# PostgreSQL: pg_dump -Fc of the database, a new database made with createdb, pg_restore into it.
# The PostgreSQL server is DATABASE=postgres://USER@HOST[:PORT]/DB when given (the drill makes and
# drops databases beside DB, so USER needs CREATEDB), else a cluster of the drill's own: initdb in a
# temporary folder, on 127.0.0.1, as the `postgres` user when run as root; stopped at the end.
# Binaries: BIN (default: swift build's debug folder). Bounded: two servers per storage, a dozen
# commands. Prints one line per step; exits non-zero at the first difference.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$(swift build --show-bin-path)}
C="$BIN/capital"
S="$BIN/capital-server"
for binary in "$C" "$S"; do
    [ -x "$binary" ] || { echo "restore-drill: $binary is missing: swift build first (or set BIN)" >&2; exit 1; }
done
work=$(mktemp -d)
chmod 755 "$work"
server=""
cluster=""
pg_user=()
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2> /dev/null
        wait "$server" 2> /dev/null
    fi
    if [ -n "$cluster" ]; then "${pg_user[@]}" "$cluster/pg_ctl" -D "$work/pg/data" -m immediate -w stop > /dev/null 2>&1; fi
    rm -rf "$work"
}
trap cleanup EXIT
password='Restore-drill1!'
step() { echo "restore-drill: $*"; }
fail() { echo "restore-drill: FAILED: $*" >&2; exit 1; }

drills=("$@")
if [ ${#drills[@]} -eq 0 ]; then
    drills=(sqlite)
    if [ -n "${DATABASE:-}" ] || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then drills+=(postgres); fi
fi

serve() { # PORT STORAGE-ARGS...: starts the server on PORT (0: a free one); sets $server and $url
    local port=$1 attempt
    shift
    for attempt in 1 2; do
        "$S" "$@" --port "$port" --scrypt-log-n 10 > "$work/out" 2> "$work/server.log" &
        server=$!
        # Up to 30 s: right after a full test run the machine can be slow to start a debug build.
        for _ in $(seq 600); do grep -q listening "$work/out" 2> /dev/null && break; sleep 0.05; done
        url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/out")
        [ -n "$url" ] && return 0
        # Twice in CI runs (never alone, 40 runs under load) a server printed nothing for 30 s:
        # say what it was doing, then start it once more, so that the drill checks the restore.
        stuck "$port"
        kill -9 "$server" 2> /dev/null
        wait "$server" 2> /dev/null || true
        server=""
    done
    fail "the server did not start on port $port: $(cat "$work/server.log" "$work/out")"
}

stuck() { # PORT: what a server that did not start was doing (its threads' stacks, where gdb is installed)
    echo "restore-drill: WARNING: the server (pid $server) printed nothing in 30 s on port $1; $(grep State /proc/"$server"/status 2>&1)" >&2
    echo "restore-drill: its output: $(cat "$work/server.log" "$work/out")" >&2
    if command -v gdb > /dev/null; then
        timeout 60 gdb -p "$server" -batch -ex 'thread apply all bt 40' 2>&1 | grep -E '^(Thread|#)' | head -200 >&2 || true
    fi
}

stop() {
    kill "$server"
    wait "$server" || fail "the server did not stop cleanly (exit $?)"
    server=""
}

# One drill. $1: a name; $2: a function that backs up; $3: one that destroys and restores and sets
# the storage arguments of the restored server in $restored; then the storage arguments.
drill() {
    local name=$1 backup=$2 restore=$3
    shift 3
    local storage=("$@") home="$work/$name-home.sqlite" fresh="$work/$name-fresh.sqlite"
    printf '%s\n' "$password" | "$S" user add anna "${storage[@]}" --password-stdin --scrypt-log-n 10 > /dev/null
    serve 0 "${storage[@]}"
    step "$name: serving at $url"
    "$C" --db "$home" import samples/household.yaml > /dev/null
    printf '%s\n' "$password" | "$C" --db "$home" sync login "$url" --user anna --password-stdin > /dev/null
    "$C" --db "$home" sync create --name Household > /dev/null
    "$C" --db "$home" spend 1234.56 Groceries --on 2025-03-30 --note "before the backup" > /dev/null
    "$C" --db "$home" sync > /dev/null
    ledger=$("$C" --db "$home" sync status --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["ledger"])')
    $backup
    step "$name: backed up while serving"
    stop
    $restore
    step "$name: data destroyed and the backup restored"
    # Where it served before: the devices know that address.
    serve "${url##*:}" "${restored[@]}"
    printf '%s\n' "$password" | "$C" --db "$fresh" sync login "$url" --user anna --password-stdin > /dev/null
    "$C" --db "$fresh" sync join "$ledger" > /dev/null
    for db in "$home" "$fresh"; do
        # Sorted: transactions of one day come in the order each database received them.
        "$C" --db "$db" export --format csv --what transactions | sort > "$db.csv"
    done
    cmp -s "$home.csv" "$fresh.csv" || fail "$name: a device joining the restored server differs: $(diff "$home.csv" "$fresh.csv" | head -5)"
    grep -q "before the backup" "$fresh.csv" || fail "$name: the last entry before the backup is missing"
    step "$name: a new device joined the restored server: $(($(wc -l < "$fresh.csv") - 1)) postings, the same as the sharing device's"
    local again
    again=$("$C" --db "$home" sync 2>&1) || fail "$name: the sharing device's sync failed: $again"
    case "$again" in *differs*) fail "$name: the sharing device's ledger differs from the restored server's: $again" ;; esac
    step "$name: the sharing device syncs with it: $again"
    stop
}

sqlite_backup() { sqlite3 "$work/srv/capital-server.sqlite" ".backup '$work/backup.sqlite'"; }
sqlite_restore() {
    [ "$(sqlite3 "$work/backup.sqlite" 'PRAGMA integrity_check')" = ok ] || fail "sqlite: the backup fails its integrity check"
    rm -rf "$work/srv"
    mkdir -m 700 "$work/restored"
    cp "$work/backup.sqlite" "$work/restored/capital-server.sqlite"
    chmod 600 "$work/restored/capital-server.sqlite"
    restored=(--data "$work/restored")
}

pg_backup() { pg_dump -Fc -f "$work/backup.dump" "$database"; }
pg_restore_drill() {
    dropdb --maintenance-db="$admin" drill
    createdb --maintenance-db="$admin" drill_restored
    pg_restore --no-owner -d "${database%/*}/drill_restored" "$work/backup.dump"
    restored=(--database "${database%/*}/drill_restored?sslmode=disable")
}

start_cluster() { # a PostgreSQL of the drill's own; sets $admin (a URL to the postgres database)
    cluster=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
    mkdir "$work/pg"
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$work/pg"
        pg_user=(runuser -u postgres --)
    fi
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "${pg_user[@]}" "$cluster/initdb" -D "$work/pg/data" -A trust -U capital --no-sync -E UTF8 --locale=C.UTF-8 > /dev/null
    "${pg_user[@]}" "$cluster/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $work/pg" start > /dev/null
    admin="postgres://capital@127.0.0.1:$port/postgres"
}

for kind in "${drills[@]}"; do
    case "$kind" in
    sqlite)
        drill sqlite sqlite_backup sqlite_restore --data "$work/srv"
        ;;
    postgres)
        if [ -n "${DATABASE:-}" ]; then admin=$DATABASE; else start_cluster; fi
        dropdb --if-exists --maintenance-db="$admin" drill 2> /dev/null
        dropdb --if-exists --maintenance-db="$admin" drill_restored 2> /dev/null
        createdb --maintenance-db="$admin" drill
        database="${admin%/*}/drill"
        "$S" migrate --database "$database?sslmode=disable" > /dev/null
        drill postgres pg_backup pg_restore_drill --database "$database?sslmode=disable"
        dropdb --maintenance-db="$admin" drill_restored
        ;;
    *) fail "unknown storage $kind: sqlite or postgres" ;;
    esac
done
step "passed (${drills[*]})"
