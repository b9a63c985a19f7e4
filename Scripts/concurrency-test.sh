#!/usr/bin/env bash
# Concurrent writers, full size: W processes (default 4) each running N `capital` commands
# (default 200) one after another, all at once: tx add, spend, schedule edit and post. Every
# command must succeed, nothing may be lost, and post must post no occurrence twice. It runs
# ConcurrentWriterTests with CAPITAL_WRITERS=W and CAPITAL_WRITES=N.
#   Scripts/concurrency-test.sh 4 200
#   SCRATCH=.build-tests Scripts/concurrency-test.sh 8 100
set -euo pipefail
cd "$(dirname "$0")/.."
writers="${1:-4}"
writes="${2:-200}"
scratch="${SCRATCH:-.build}"
swift build --build-tests --scratch-path "$scratch"
start=$(date +%s)
CAPITAL_WRITERS="$writers" CAPITAL_WRITES="$writes" swift test --skip-build --scratch-path "$scratch" \
    --filter 'ConcurrentWriterTests/writersMixingTransactionsEditsAndPostLoseNothing' 2>&1 | grep -E 'concurrent writers:|✔|✘|passed|failed|Expectation'
echo "concurrency-test.sh $writers $writes: $(( $(date +%s) - start )) s"
