#!/usr/bin/env bash
# Crash test, long run: kills `capital` with SIGKILL N times (default 1000) while it writes, and
# checks the database after every kill (integrity, foreign keys, balanced transactions, every
# command that reported success present, the one in flight whole or absent). It runs the driver of
# Tests/CapitalCLITests/CrashTests.swift with CAPITAL_CRASH_KILLS=N and no time limit.
#   Scripts/crash-test.sh 1000
#   SCRATCH=.build-tests Scripts/crash-test.sh 200    # reuse another build folder
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-1000}"
scratch="${SCRATCH:-.build}"
swift build --build-tests --scratch-path "$scratch"
start=$(date +%s)
CAPITAL_CRASH_KILLS="$kills" swift test --skip-build --scratch-path "$scratch" \
    --filter 'CrashTests/killedWritersLeaveEveryCommandWholeOrAbsent' 2>&1 | grep -E 'crash test:|✔|✘|passed|failed|Expectation'
echo "crash-test.sh $kills: $(( $(date +%s) - start )) s"
