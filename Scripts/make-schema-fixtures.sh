#!/usr/bin/env bash
# Rebuilds Tests/Fixtures/schema/v1.sqlite … v4.sqlite: databases written by capital as it was when
# each schema version was the newest, for Tests/CapitalStoreTests/MigrationFixtureTests.swift.
#
#   v1 (v1)              ad40358  walking skeleton: accounts, groups, transactions
#   v2 (v2-schedules)    0dc18aa  schedules, exceptions, posted occurrences, calendar days
#   v3 (v3-instruments)  c6ce164  stored loans with prepayments, asset value change
#   v4 (v4-tracking)     65c099c  cards, deposits, dues, budgets, category colours and icons
#
# For each version: a git worktree of that commit in /tmp, `swift build --product capital` (one
# scratch folder shared by all four, so the dependencies build once), then with that binary `init`
# or `import` of a ledger file of the time plus a few commands that touch every table of the schema
# (a removed transaction, a hidden and a removed account, an edited transaction, schedules posted,
# skipped and moved …), then VACUUM. The worktrees are removed afterwards.
#
# Usage: Scripts/make-schema-fixtures.sh [SCRATCH]
#   SCRATCH  the shared build folder (default /tmp/capital-fixtures-build). A cold build takes
#            minutes; seeding SCRATCH with checkouts/, repositories/ and workspace-state.json of
#            an existing build folder (e.g. .build-tests) avoids fetching the dependencies again.
# Needs: swift, git, sqlite3. Record ids and timestamps differ on every run; the tests read the
# expected figures from each fixture, not from this script.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out="$repo/Tests/Fixtures/schema"
scratch=${1:-/tmp/capital-fixtures-build}
work=$(mktemp -d /tmp/capital-fixtures-XXXXXX)
mkdir -p "$out" "$scratch"
trap 'rm -rf "$work"' EXIT

# build VERSION COMMIT: leaves the binary at $work/capital-VERSION.
build() {
    local version=$1 commit=$2 tree=/tmp/capital-fixture-$1
    git -C "$repo" worktree remove --force "$tree" 2>/dev/null || true
    git -C "$repo" worktree add --detach "$tree" "$commit" >/dev/null
    # The first commit had no core tests yet; the package still names their target.
    if [ ! -d "$tree/Tests/CapitalCoreTests" ]; then
        mkdir -p "$tree/Tests/CapitalCoreTests"
        echo "// placeholder for building the binary of $commit" >"$tree/Tests/CapitalCoreTests/Placeholder.swift"
    fi
    echo "building capital at $commit ($version)…" >&2
    swift build --package-path "$tree" --scratch-path "$scratch" --product capital >&2
    cp "$scratch/debug/capital" "$work/capital-$version"
    git -C "$repo" worktree remove --force "$tree"
}

# Every command runs with a fixed today, on the fixture's database.
run() {
    local version=$1
    shift
    CAPITAL_DB="$work/$version.sqlite" "$work/capital-$version" --today 2025-04-01 "$@" >/dev/null
}

# The short id a command prints in parentheses: "Spent … (c6bbd2d6)."
id_of() { sed -E 's/.*\(([0-9a-f]{8})\)\.?$/\1/'; }

finish() {
    local version=$1
    sqlite3 "$work/$version.sqlite" "VACUUM; PRAGMA integrity_check;" >/dev/null
    rm -f "$work/$version.sqlite-wal" "$work/$version.sqlite-shm"
    cp "$work/$version.sqlite" "$out/$version.sqlite"
    chmod 0644 "$out/$version.sqlite"
    echo "$out/$version.sqlite: $(wc -c <"$out/$version.sqlite") bytes, schema $(sqlite3 "$out/$version.sqlite" "SELECT group_concat(identifier, ' ') FROM grdb_migrations")" >&2
}

# Ledger steps shared by every version: entries by each quick command, a split, a removed
# transaction, an edited one, a removed and a hidden account, a USD account and a group.
ledger_steps() {
    local v=$1 id
    run "$v" spend 1234.56 Groceries --note market
    run "$v" earn 5000 "Other income" --on 2025-03-30
    run "$v" transfer 10000 --from "VTB Debit" --to Cash --on 2025-03-31
    run "$v" account add "Cash USD" --kind cash --currency USD
    run "$v" account add "Opening USD" --kind equity --currency USD
    run "$v" tx add --on 2025-03-29 --payee "Cash from abroad" -p "Cash USD=250.75" -p "Opening USD"
    run "$v" tx add --on 2025-03-28 --payee "Bank" -p "Loan interest=30000" -p "Mortgage=12345.67" -p "VTB Debit"
    id=$(CAPITAL_DB="$work/$v.sqlite" "$work/capital-$v" --today 2025-04-01 spend 999 Entertainment --note "to remove" | id_of)
    run "$v" tx rm "$id"
    id=$(CAPITAL_DB="$work/$v.sqlite" "$work/capital-$v" --today 2025-04-01 spend 450 "Eating out" | id_of)
    run "$v" tx edit "$id" --posting "Eating out=475.25" --posting "VTB Debit"
    run "$v" account add "Old piggy bank" --kind cash
    run "$v" account rm "Old piggy bank"
    run "$v" account rm Fuel --hide
    run "$v" account edit Cash --floor 5000
    run "$v" group add "Spare cash" --type cash-flow --account Cash --account "Cash USD"
}

# Schedules (v2 on): a backfilled fixed one, a confirm range on working days, a split on the last
# day of the month, a skipped and a moved occurrence, a removed schedule, a holiday, and `post`.
schedule_steps() {
    local v=$1
    run "$v" schedule add Rent --rule "monthly on 5" --start 2025-01-05 --amount 45000 --from "VTB Debit" --to Housing --backfill
    run "$v" schedule add Lunch --rule "every working day" --calendar RU --start 2025-03-10 --amount 250..500 --from Cash --to "Eating out" --approval confirm
    run "$v" schedule add "Mortgage split" --rule "FREQ=MONTHLY;BYMONTHDAY=-1" --start 2025-01-31 \
        --posting "Loan interest=30000" --posting Mortgage=12000 --posting "VTB Debit"
    run "$v" schedule skip Rent --at 2025-05-05
    run "$v" schedule edit Rent --scope one --at 2025-06-05 --move-to 2025-06-06
    run "$v" schedule add "Old gym" --rule "weekly on monday" --start 2025-02-03 --amount 700 --from Cash --to Sport
    run "$v" schedule rm "Old gym"
    run "$v" calendar add-holiday RU 2025-06-13 --name "Family day"
    run "$v" post
}

build v1 ad40358
git -C "$repo" show 0dc18aa:samples/household.yaml >"$work/household-0dc18aa.yaml"
run v1 import "$work/household-0dc18aa.yaml"
ledger_steps v1
finish v1

build v2 0dc18aa
run v2 import "$work/household-0dc18aa.yaml"
ledger_steps v2
schedule_steps v2
finish v2

build v3 c6ce164
git -C "$repo" show c6ce164:samples/household.yaml >"$work/household-c6ce164.yaml"
run v3 import "$work/household-c6ce164.yaml"
ledger_steps v3
schedule_steps v3
run v3 account add "Family car" --kind fixed-asset
run v3 tx add --on 2024-06-20 --payee "Car dealer" -p "Family car=2000000" -p Capital
run v3 account add "Auto loan" --kind loan
run v3 loan add "Auto loan" --principal 1200000 --rate 14.5 --term 60 --start 2024-06-20 --pay-from "VTB Debit" --collateral "Family car"
run v3 loan prepay "Auto loan" 100000 --on 2025-06-20 --reduce term
run v3 loan prepay "Auto loan" 5000 --on 2025-07-20 --every "monthly on 20" --until 2026-06-20 --reduce payment
run v3 post
finish v3

build v4 65c099c
git -C "$repo" show 65c099c:samples/household.yaml >"$work/household-65c099c.yaml"
run v4 import "$work/household-65c099c.yaml"
ledger_steps v4
schedule_steps v4
run v4 card add "Halva card" --limit 80000 --statement-day 15 --due-day 5 --pay-from "VTB Debit"
run v4 spend 3200 Clothing --from "Halva card" --on 2025-03-20
run v4 account add "Tinkoff deposit" --kind deposit
run v4 transfer 50000 --from "VTB Debit" --to "Tinkoff deposit" --on 2025-01-15
run v4 deposit add "Tinkoff deposit" --rate 15.5 --opened 2025-01-15 --maturity 2026-01-15 --payout "VTB Debit"
run v4 due add bill --total 2600 --due 2025-04-15 --reason "Gas, March" --institution Mosgaz
run v4 due pay 6 1000 --on 2025-03-31
run v4 due add fine --total 1500 --due 2025-03-25 --reason "Parking, Arbat"
run v4 budget set Clothing 15000
run v4 category add Pets --expense --color green --icon 🐈
run v4 due rm 5
finish v4
