#!/usr/bin/env bash
# Two benchmarks measured in turn, round after round, so that a noisy machine slows both alike:
# the benchmark binary run alone for each (package-benchmark's runner prints its histograms), its
# wall-clock p0 and p50 in ms a line. Build it first:
#   CAPITAL_BENCHMARKS=1 swift build -c release --scratch-path .build-bench --product CapitalBenchmarks
# Usage: Scripts/benchmark-interleaved.sh ROUNDS 'REGEX A' 'REGEX B'
# Env: SCRATCH (build folder, default .build-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${SCRATCH:-.build-bench}/release/CapitalBenchmarks"
rounds=${1:?rounds}
shift
for round in $(seq 1 "$rounds"); do
    for filter in "$@"; do
        figures=$("$binary" --filter "$filter" 2>&1 | awk '
            /^Time \(wall clock\):/ { wall = 1 }
            wall && / 0\.000000000000 / { p0 = $1 }
            wall && / 0\.500000000000 / { printf "%.1f %.1f", p0 / 1e6, $1 / 1e6; exit }')
        echo "round $round  p0/p50 ms: ${figures:-none}  $filter"
    done
done
