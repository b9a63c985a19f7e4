#!/usr/bin/env bash
# Runs the sync convergence simulation (Tests/CapitalKitTests/SyncConvergenceTests.swift) on more
# seeds than `swift test` does: `Scripts/sync-seeds.sh 10000` runs seeds 1…10000,
# `Scripts/sync-seeds.sh 500 7000` seeds 7000…7499. A failing seed is printed with its trace.
set -euo pipefail
count="${1:-10000}"
first="${2:-1}"
cd "$(dirname "$0")/.."
swift build --build-tests
CAPITAL_SYNC_SEEDS="$count" CAPITAL_SYNC_FIRST_SEED="$first" swift test --skip-build --filter SyncConvergence
