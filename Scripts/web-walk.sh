#!/usr/bin/env bash
# capital serve's web page in a real browser: starts a server of its own on loopback (SQLite in a
# temporary folder), shares the sample household from a device as anna, then drives headless
# Chromium through the page (Scripts/web_walk.py): sign in, add an expense and see can-spend go
# down by it, pay a bill, sign out; screenshots at phone (390 px) and desktop (1280 px) width into
# OUTDIR (default: a new temporary folder). Then the device syncs and must hold the expense, by
# anna. Fails on a Content-Security-Policy refusal or any other SEVERE console entry.
#
#   Scripts/web-walk.sh [OUTDIR]
#
# The binaries: $CAPITAL_BIN (capital) and capital-server beside it, else .build/debug/. Needs
# Debian's chromium + chromium-driver and Selenium (and Pillow) from PyPI; if any is missing it
# says which and exits 77 (a skip).
set -euo pipefail
cd "$(dirname "$0")/.."

C="${CAPITAL_BIN:-.build/debug/capital}"
S="$(dirname "$C")/capital-server"
for binary in "$C" "$S"; do
    [[ -x "$binary" ]] || { echo "web-walk: $binary is missing: swift build first (or set CAPITAL_BIN)" >&2; exit 1; }
done
script=web-walk
source Scripts/lib/browser.sh
source Scripts/lib/server.sh
browser_find

if [[ $# -ge 1 ]]; then out="$1"; else out="$(mktemp -d "${TMPDIR:-/tmp}/capital-web-walk.XXXXXX")"; fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work=$(mktemp -d)
server=""
cleanup() {
    [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
password='Web-walk-1!'

server_storage
printf '%s\n' "$password" | "$S" user add anna "${storage[@]}" --password-stdin --scrypt-log-n 10 > /dev/null
server_start
[[ -n "$url" ]] || { echo "web-walk: the server did not start: $(cat "$work/log")" >&2; exit 1; }
home="$work/phone.db"
"$C" --db "$home" import samples/household.yaml > /dev/null
printf '%s\n' "$password" | "$C" --db "$home" sync login "$url" --user anna --password-stdin > /dev/null
"$C" --db "$home" sync create --name Household > /dev/null
echo "web-walk: $url, the sample shared as Household"

browser_bounded 100 "$python" Scripts/web_walk.py --chromium "$chromium" --chromedriver "$chromedriver" --url "$url" \
    --user anna --password "$password" --outdir "$out" --amount 350

# What the page wrote reached the log: the device pulls the expense, anna's.
"$C" --db "$home" sync > /dev/null
if ! "$C" --db "$home" tx list --format json | "$python" -c '
import json, sys
rows = [t for t in json.load(sys.stdin) if t.get("note", "").startswith("coffee <script>")]
sys.exit(0 if len(rows) == 1 and rows[0].get("spender") == "anna" else 1)'; then
    echo "web-walk: FAILED: the expense added on the page is not on the device after capital sync (once, by anna)" >&2
    exit 1
fi
echo "web-walk: the device synced the expense, by anna"
