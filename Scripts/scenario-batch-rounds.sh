#!/usr/bin/env bash
# Issue 24's whole-process figures, measured in rounds so that a noisy machine slows every case
# alike: each round runs the "before" binary once (CSV to standard output, on its own sample),
# then this build's five cases (cash CSV and JSON to a new file and to /dev/null, 60-month loans
# CSV to a new file; every output file is removed first, so files are written, not replaced).
# Prints each round's seconds, then the medians and each median divided by the machine's factor
# (the "before" median over the issue's 3.1 s), and the median JSON/CSV ratios.
#
# Inputs: Scripts/make-scenario-batch.py 1000000 s1m.csv, and s1m-loans.csv with --loans.
# The "before" binary: a release build of commit 9989db5, e.g.
#   git worktree add /tmp/before 9989db5 && (cd /tmp/before && swift build -c release --product capital)
# Usage: Scripts/scenario-batch-rounds.sh ROUNDS BEFORE_BINARY BEFORE_SAMPLE [FOLDER_OF_CSVS]
# Example: Scripts/scenario-batch-rounds.sh 9 /tmp/before/.build/release/capital /tmp/before/samples/household.yaml /tmp
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:?rounds}
before=${2:?before binary}
before_sample=${3:?before sample}
data=${4:-/tmp}
build="$PWD/.build/release/capital"
ledger=(-f "$PWD/samples/household.yaml" --today 2025-04-01 scenario eval)
out=$(mktemp -d)
rounds_file=$(mktemp)
trap 'rm -rf "$out" "$rounds_file"' EXIT
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
echo "round  before  csv-file  json-file  csv-null  json-null  loans-file"
for round in $(seq 1 "$rounds"); do
    rm -f "$out"/*
    echo "$round $(seconds "$before" -f "$before_sample" --today 2025-04-01 scenario eval "$data/s1m.csv" --format csv) \
$(seconds "$build" "${ledger[@]}" "$data/s1m.csv" --format csv --out "$out/o.csv") \
$(seconds "$build" "${ledger[@]}" "$data/s1m.csv" --format json --out "$out/o.json") \
$(seconds "$build" "${ledger[@]}" "$data/s1m.csv" --format csv --out /dev/null) \
$(seconds "$build" "${ledger[@]}" "$data/s1m.csv" --format json --out /dev/null) \
$(seconds "$build" "${ledger[@]}" "$data/s1m-loans.csv" --format csv --out "$out/l.csv")"
done | tee "$rounds_file"
python3 - "$rounds_file" <<'PY'
import statistics, sys
rows = [list(map(float, line.split()[1:])) for line in open(sys.argv[1]) if line[0].isdigit()]
names = ["before", "csv-file", "json-file", "csv-null", "json-null", "loans-file"]
medians = [statistics.median(column) for column in zip(*rows)]
factor = medians[0] / 3.1
print(f"this machine is {factor:.2f} times slower than the issue's (before: {medians[0]:.2f} s against 3.1 s)")
for name, median in zip(names, medians):
    print(f"{name:11} median {median:.3f} s, on the issue's machine {median / factor:.3f} s")
print(f"JSON/CSV, median of the rounds: to a file {statistics.median(r[2] / r[1] for r in rows):.2f}, "
      f"to /dev/null {statistics.median(r[4] / r[3] for r in rows):.2f}")
PY
