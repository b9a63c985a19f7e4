# Shared by the scripts that start a capital-server of their own (sync-speed.sh, load-test.sh).
# Needs $S (capital-server) and $work (a temporary folder); sets `storage` (the arguments naming
# the server's data: a folder in $work, or with DATABASE=postgres://… that database, migrated here).
server_storage() {
    storage=(--data "$work/srv")
    if [ -n "${DATABASE:-}" ]; then
        storage=(--database "$DATABASE")
        "$S" migrate "${storage[@]}" > /dev/null
    fi
}

# Starts the server on a free port, its log in $work/log; sets `server` (its pid) and `url`. With
# SERVER_CPUS (taskset's list, `0`) the server runs on those processors only.
server_start() {
    ${SERVER_CPUS:+taskset -c "$SERVER_CPUS"} "$S" "${storage[@]}" --port 0 > "$work/out" 2> "$work/log" &
    server=$!
    for _ in $(seq 100); do grep -q listening "$work/out" 2> /dev/null && break; sleep 0.1; done
    url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/out")
}
