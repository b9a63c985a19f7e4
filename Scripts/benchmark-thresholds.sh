#!/usr/bin/env bash
# The checked-in p90 thresholds of the main benchmarks (Thresholds/), with the tolerances their
# configurations give (Benchmarks/CapitalBenchmarks/Tolerances.swift).
#
# Usage: Scripts/benchmark-thresholds.sh check    run the main benchmarks; exit 1 on a regression
#        Scripts/benchmark-thresholds.sh update   run them and write their p90 figures to Thresholds/
#        Scripts/benchmark-thresholds.sh read     print the thresholds and tolerances
# Env: SCRATCH (build folder, default .build-bench).
set -uo pipefail  # not -e: check reads the plugin's exit status itself
cd "$(dirname "$0")/.."

# The main benchmarks, by exact name (each a regular expression matched whole).
MAIN=(
    "Recurrence: 1000 rules x 30 years into a delta buffer"
    "Recurrence: 1000 rules with working days and adjustments x 30 years"
    "Forecast: timeline + level-4 scan, 1000 schedules x 50 accounts x 30 years"
    "Loan: amortise 10000 loans x 360 months"
    "Scenario: 1000000 cash purchases, 2 threads"
    "Scenario CSV: parse 1000000 rows, 1 thread line by line"
    "Scenario output: 1000000 results to CSV, 2 threads"
    "Ledger file: parse and resolve (what -f does), 1000 rules x 30 years"
    "Whole forecast path from SQLite: snapshot, instruments, timeline, level-4 scan, 1000 rules x 30 years"
    "Engine: timeline and level-4 scan alone, 1000 rules x 30 years"
    "Exact answer: level 4 split into its pool and its card, can-spend and when, 1000 rules x 30 years"
    "Exact answer: level 4 with a card paid over time, can-spend and when, 1000 rules x 30 years"
    "History: opening balances from checkpoints and last month listed, 1000000 posted transactions"
    "History: a spend with its checkpoint kept, on 1000000 posted transactions"
    "History: stats of the last 12 months, 1000000 posted transactions"
    "Statement: 100000 CSV lines read by 30 if rules"
    "Statement: 10000 OFX transactions"
)
filters=()
for name in "${MAIN[@]}"; do
    filters+=(--filter "$(printf '%s' "$name" | sed 's/[][\.*^$+?(){}|]/\\&/g')")
done

export CAPITAL_BENCHMARKS=1
SCRATCH=${SCRATCH:-.build-bench}
case "${1:-check}" in
    update)
        swift package --scratch-path "$SCRATCH" --allow-writing-to-package-directory benchmark thresholds update "${filters[@]}" --no-progress || exit 1
        # package-benchmark 1.38.1 writes TARGET.NAME.p90.json with the name's spaces made '_' but
        # looks for the name as it is when checking: keep each file under the name it is read by.
        # The "… per second" rates are recorded once per run, not per iteration: a single sample
        # is no p90, and the wall clock they derive from is checked. They are left out.
        for name in "${MAIN[@]}"; do
            written="Thresholds/CapitalBenchmarks.${name// /_}.p90.json"
            [ -f "$written" ] || continue
            python3 - "$written" "Thresholds/CapitalBenchmarks.$name.p90.json" <<'PY' || { echo "could not rewrite $written" >&2; exit 1; }
import json, os, sys
with open(sys.argv[1]) as f:
    figures = {k: v for k, v in json.load(f).items() if not k.endswith(" per second")}
with open(sys.argv[2], "w") as f:
    json.dump(figures, f, indent=2, sort_keys=True)
    f.write("\n")
if sys.argv[1] != sys.argv[2]:
    os.remove(sys.argv[1])
PY
        done
        ls Thresholds
        ;;
    read)
        swift package --scratch-path "$SCRATCH" benchmark thresholds read "${filters[@]}"
        ;;
    check)
        log=$(mktemp)
        trap 'rm -f "$log"' EXIT
        swift package --scratch-path "$SCRATCH" benchmark thresholds check "${filters[@]}" --no-progress 2>&1 | tee "$log"
        status=${PIPESTATUS[0]}
        # SwiftPM turns a failing plugin's exit code into 1, so package-benchmark's own codes (2 a
        # regression, 4 improvements only) are lost: its error line tells them apart.
        if [ "$status" -eq 0 ]; then
            echo "benchmark thresholds: all within tolerance"
        elif grep -q "benchmarkThresholdImprovement" "$log" && ! grep -q "benchmarkThresholdRegression" "$log"; then
            echo "benchmark thresholds: improvements only (Scripts/benchmark-thresholds.sh update records them)"
        elif grep -q "benchmarkThresholdRegression" "$log"; then
            echo "benchmark thresholds: regression (see the tables above)" >&2
            exit 1
        else
            echo "benchmark thresholds: the check did not run to the end (exit $status; see above)" >&2
            exit 1
        fi
        ;;
    *)
        echo "usage: Scripts/benchmark-thresholds.sh check|update|read" >&2
        exit 64
        ;;
esac
