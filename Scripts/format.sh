#!/usr/bin/env bash
# Formats the sources with the toolchain's swift-format and the committed .swift-format.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format --in-place --recursive --configuration .swift-format Sources Tests Benchmarks Package.swift
