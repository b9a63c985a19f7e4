#!/usr/bin/env bash
# Renders the sample's `capital report` page in headless Chromium (Selenium) at a phone width
# (390 px) and a desktop width (1280 px), in the light and the dark theme, and writes
# report-{phone,desktop}-{light,dark}.png (full page) to OUTDIR (default: a new temporary folder).
# Each render fails the run on a SEVERE console entry (JS error, failed load), a blank picture,
# horizontal overflow at phone width, or a body background that does not match the theme; the
# auto theme must follow an emulated dark/light preference. The page is loaded from file:// with
# no network. Overlapping chart labels and low-contrast text are printed as warnings.
#
#   Scripts/report-screenshot.sh [OUTDIR]
#
# The binary: $CAPITAL_BIN, else .build/debug/capital. Needs Debian's chromium + chromium-driver
# and, from PyPI, selenium + pillow; if any is missing it says which and exits 77 (a skip).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${CAPITAL_BIN:-.build/debug/capital}"
if [[ ! -x "$bin" ]]; then
    echo "report-screenshot: no capital binary at $bin (build it, or set CAPITAL_BIN)" >&2
    exit 1
fi

script=report-screenshot
source Scripts/lib/browser.sh
browser_find

if [[ $# -ge 1 ]]; then
    out="$1"
    mkdir -p "$out"
else
    out="$(mktemp -d "${TMPDIR:-/tmp}/capital-report-screenshot.XXXXXX")"
fi
out="$(cd "$out" && pwd)"
echo "output: $out"

for theme in light dark auto; do
    if ! log="$("$bin" -f samples/household.yaml --today 2025-04-01 report --theme "$theme" --out "$out/report-$theme.html" --force 2>&1)"; then
        echo "report-screenshot: capital report --theme $theme failed: $(printf '%s' "$log" | tr '\n' ' ')" >&2
        exit 1
    fi
done

# Bounded, so a hung browser cannot stall CI (the Swift test allows 120 s in all).
browser_bounded 100 "$python" Scripts/report_screenshot.py --chromium "$chromium" --chromedriver "$chromedriver" --outdir "$out" \
    --light "$out/report-light.html" --dark "$out/report-dark.html" --auto "$out/report-auto.html"
