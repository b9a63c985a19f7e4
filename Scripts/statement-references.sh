#!/usr/bin/env bash
# Regenerate the hledger reference readings of the bank-statement fixtures in
# Tests/Fixtures/statements/ (needs hledger 1.25, iconv).
#
# For each statement NAME.{csv,tsv} + NAME.rules it writes
#   NAME.hledger.csv      hledger print -O csv  (one row per posting)
#   NAME.hledger.journal  hledger print         (journal text; the only place
#                                                balance assertions appear)
# The statement is converted to UTF-8 with iconv in a temp dir first (hledger
# reads UTF-8 only); all *.rules files are copied next to it so `include`
# resolves. Amounts are printed with `-c` so every reference uses `.` as the
# decimal mark and no digit-group marks (hledger 1.25 would otherwise infer
# e.g. "1 234.50" for rubank but "1.234,50" for eurobank).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fix="$root/Tests/Fixtures/statements"
# hledger (GHC) decodes files and encodes stdout with the locale's encoding
export LC_ALL=C.UTF-8 LANG=C.UTF-8

command -v hledger >/dev/null || { echo "hledger not found" >&2; exit 1; }
command -v iconv >/dev/null || { echo "iconv not found" >&2; exit 1; }
echo "using $(hledger --version)" >&2

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$fix"/*.rules "$tmp"/

# name  statement-file  source-encoding  commodity-style  opening-balance-posting
statements=(
  "eurobank|eurobank.csv|WINDOWS-1252|EUR1000.00|assets:bank:giro  EUR1523.17|2024-02-29"
  "rubank|rubank.csv|WINDOWS-1251|1000.00||"
  "tabbank|tabbank.tsv|UTF-8|GBP1000.00||"
  "signs|signs.csv|UTF-8|EUR1000.00||"
  "newest|newest.csv|UTF-8|EUR1000.00||"
)

for entry in "${statements[@]}"; do
  IFS='|' read -r name file enc style opening opendate <<<"$entry"
  src="$fix/$file"
  dst="$tmp/$file"
  if [[ "$enc" == "UTF-8" ]]; then
    cp "$src" "$dst"
  else
    iconv -f "$enc" -t UTF-8 "$src" >"$dst"
  fi
  hledger -f "$dst" --rules-file "$tmp/$name.rules" print -O csv -c "$style" \
    >"$fix/$name.hledger.csv"
  hledger -f "$dst" --rules-file "$tmp/$name.rules" print -c "$style" \
    >"$fix/$name.hledger.journal"

  # hledger does not check balance assertions generated from CSV; check them
  # by re-reading the printed journal after an opening balance.
  if [[ -n "$opening" ]]; then
    # (one concatenated file: hledger 1.25 checks assertions per -f file)
    { printf '%s opening balance\n    %s\n    equity:opening\n\n' "$opendate" "$opening"
      cat "$fix/$name.hledger.journal"; } >"$tmp/$name.check.journal"
    hledger -f "$tmp/$name.check.journal" balance >/dev/null
  fi
  txns=$(grep -c '^[0-9]' "$fix/$name.hledger.journal" || true)
  echo "$name: $txns transactions -> Tests/Fixtures/statements/$name.hledger.{csv,journal}" >&2
done
