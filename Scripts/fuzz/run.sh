#!/usr/bin/env bash
# libFuzzer targets for the ledger-file reader (ledger.swift: LedgerFile.parse, then Store.load)
# and the rule parsers (rrule.swift: RRULE text and readable rules), run for a fixed number of
# inputs each.
#
#   Scripts/fuzz/run.sh                      # both targets, 200 000 runs each
#   RUNS=1000000 Scripts/fuzz/run.sh rrule   # one target, more runs
#
# How it builds: swiftc has no -sanitize=fuzzer-no-link, but -sanitize=fuzzer on a compile-only
# job instruments the code for coverage without linking libFuzzer's main. So the package's
# library targets are built once in release with `-Xswiftc -sanitize=fuzzer` (and libyaml, which
# is C, with clang's -fsanitize=fuzzer-no-link) into .build-fuzz; each target is then linked by
# swiftc -sanitize=fuzzer against the built .swiftmodules and object files (CapitalCore for the
# rules; CapitalCore, CapitalStore, Yams, CYaml, GRDB and the system SQLite for ledgers). Only
# library targets are built, so no second `main` meets libFuzzer's.
#
# Inputs: a corpus made fresh from samples/household.yaml, small files written below, the rule
# fixtures and ReadableRule's forms, plus every committed finding in Tests/Fixtures/fuzz/<target>/
# (so old crashes are retried first). Findings (crash-*, timeout-*, oom-*) land in
# .build-fuzz/findings/<target>/: copy them to Tests/Fixtures/fuzz/<target>/ (a ledger finding
# without its first byte, named .yaml when that byte was even and .json when odd), where
# HostileLedgerFileTests and HostileInputTests feed them to the parsers on every `swift test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

RUNS="${RUNS:-200000}"
SCRATCH="${SCRATCH:-.build-fuzz}"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ledger rrule)

swift build -c release --target CapitalStore -Xswiftc -sanitize=fuzzer -Xcc -fsanitize=fuzzer-no-link --scratch-path "$SCRATCH"

out="$SCRATCH/release"
checkouts="$SCRATCH/checkouts"
link=(
    swiftc -sanitize=fuzzer -parse-as-library -O -I "$out/Modules"
    -Xcc -fmodule-map-file="$checkouts/Yams/Sources/CYaml/include/module.modulemap" -Xcc -I -Xcc "$checkouts/Yams/Sources/CYaml/include"
    -Xcc -fmodule-map-file="$checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap"
)

corpus() {  # corpus <target>: a fresh seed corpus, with the committed findings
    local dir="$SCRATCH/corpus/$1"
    rm -rf "$dir" && mkdir -p "$dir"
    case "$1" in
    ledger)
        # The first byte picks the reader: even for YAML, odd for JSON.
        { printf '\0'; cat samples/household.yaml; } >"$dir/household.yaml"
        printf '\0capital: 1\ncurrency: RUB\naccounts:\n  - name: &d VTB Debit\n    kind: debit\n  - {name: Food, kind: expense}\ntransactions:\n  - {date: 2025-01-05, amount: 1 234,50, from: *d, to: Food, tags: [a, b]}\nschedules:\n  - {name: Rent, rule: monthly on 5, start: 2025-01-05, amount: 100, from: *d, to: Food}\n' >"$dir/small.yaml"
        printf '\1{"capital": 1, "currency": "RUB", "accounts": [{"name": "Cash \\ud83d\\ude00", "kind": "cash"}], "dues": [{"type": "bill", "total": "5", "reason": "x", "due": "2025-01-01", "iban": "DE89 3704 0044 0532 0130 00"}]}\n' >"$dir/small.json"
        ;;
    rrule)
        grep -o '"rule":"[^"]*"' Tests/Fixtures/rrule.json | cut -d'"' -f4 | sort -u | while read -r rule; do
            printf '%s' "$rule" >"$dir/$(printf '%s' "$rule" | md5sum | cut -c1-12)"
        done
        for form in "daily" "every 2 days" "every working day" "weekly on mon,thu" "every 2 weeks on fri" "monthly on 31" \
            "monthly on last working day" "monthly on 2nd tue" "quarterly on 15" "yearly on 02-29"; do
            printf '%s' "$form" >"$dir/readable-${form// /-}"
        done
        ;;
    esac
    # Committed findings: ledger files are named by their reader (.yaml, .json), so the byte that
    # picks it goes back in front.
    local finding
    for finding in Tests/Fixtures/fuzz/"$1"/*; do
        [ -f "$finding" ] || continue
        case "$finding" in
        *.yaml) { printf '\0'; cat "$finding"; } >"$dir/fixture-$(basename "$finding")" ;;
        *.json) { printf '\1'; cat "$finding"; } >"$dir/fixture-$(basename "$finding")" ;;
        *) cp "$finding" "$dir/fixture-$(basename "$finding")" ;;
        esac
    done
}

for target in "${targets[@]}"; do
    case "$target" in
    ledger) objects=("$out"/CapitalCore.build/*.o "$out"/CapitalStore.build/*.o "$out"/Yams.build/*.o "$out"/CYaml.build/src/*.o "$out"/GRDB.build/*.o -lsqlite3) ;;
    rrule) objects=("$out"/CapitalCore.build/*.o) ;;
    *) echo "unknown target $target: ledger or rrule" >&2 && exit 64 ;;
    esac
    "${link[@]}" "Scripts/fuzz/$target.swift" "${objects[@]}" -o "$SCRATCH/fuzz-$target"
    corpus "$target"
    findings="$SCRATCH/findings/$target"
    mkdir -p "$findings"
    # -timeout: an input taking 10 s is a hang; -max_len: room for the whole sample.
    "$SCRATCH/fuzz-$target" "$SCRATCH/corpus/$target" -runs="$RUNS" -timeout=10 -max_len=65536 -dict="Scripts/fuzz/$target.dict" \
        -artifact_prefix="$findings/" -print_final_stats=1 2>&1 | tee "$SCRATCH/fuzz-$target.log" | grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|Done|stat::|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)' || true
done
