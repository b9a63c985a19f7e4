#!/usr/bin/env bash
# Formats the sources with the toolchain's swift-format and the committed .swift-format;
# with --lint, only checks them and fails on any finding (what .ci/run does).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Benchmarks Package.swift)
if [[ "${1:-}" == "--lint" ]]; then
    swift format lint --strict --recursive --configuration .swift-format "${paths[@]}"
else
    swift format --in-place --recursive --configuration .swift-format "${paths[@]}"
fi
