#!/usr/bin/env bash
# capital against hledger on the same work: generated ledgers of R rules over Y years, each
# forecast day by day by both, the daily balances compared, and wall time and peak memory of each
# (median of RUNS runs). Installs nothing: hledger comes from the distribution
# (Debian/Ubuntu: `sudo apt-get install hledger`, which gives 1.25 on Debian 12).
#
# Usage: Scripts/compare-hledger.sh [RULES...] ; env YEARS="1 10 30" RUNS=3 OUT=/tmp/capital-compare CAPITAL_BIN=path
set -euo pipefail
cd "$(dirname "$0")/.."

RULES=("${@:-10 100 1000}")
read -r -a RULES <<< "${RULES[*]}"
read -r -a YEARS <<< "${YEARS:-1 10 30}"
RUNS=${RUNS:-3}
OUT=${OUT:-/tmp/capital-compare}
TODAY=2025-01-01

if ! command -v hledger >/dev/null; then
    echo "hledger is not installed: on Debian or Ubuntu, sudo apt-get install hledger" >&2
    exit 2
fi
if ! command -v /usr/bin/time >/dev/null; then
    echo "/usr/bin/time is not installed: on Debian or Ubuntu, sudo apt-get install time" >&2
    exit 2
fi
# CAPITAL_BIN: a capital binary to use instead of building the release one.
if [ -n "${CAPITAL_BIN:-}" ]; then
    CAPITAL=$CAPITAL_BIN
else
    swift build -c release --product capital >/dev/null
    CAPITAL=$(swift build -c release --show-bin-path)/capital
fi
mkdir -p "$OUT"

# median of numbers on stdin
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

# run NAME COMMAND...: RUNS runs; prints "seconds kilobytes" medians; the last run's stdout in $OUT/NAME.out
run() {
    local name=$1
    shift
    : > "$OUT/$name.times"
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M" -o "$OUT/$name.time" "$@" > "$OUT/$name.out"
        cat "$OUT/$name.time" >> "$OUT/$name.times"
    done
    echo "$(cut -d' ' -f1 "$OUT/$name.times" | median) $(cut -d' ' -f2 "$OUT/$name.times" | median)"
}

printf "%-6s %-5s %-9s %10s %10s %10s %10s %8s %8s\n" rules years agree "capital s" "hledger s" "capital MB" "hledger MB" "time ×" "memory ×"
for rules in "${RULES[@]}"; do
    for years in "${YEARS[@]}"; do
        base="$OUT/r$rules-y$years"
        "$CAPITAL" sample generate --rules "$rules" --years "$years" --out "$base.yaml"
        end=$("$CAPITAL" -f "$base.yaml" --today "$TODAY" forecast --until "+${years}y" --by day --expected --format json |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["periods"][-1]["end"])')
        after=$(python3 -c "import datetime; print(datetime.date.fromisoformat('$end') + datetime.timedelta(days=1))")
        "$CAPITAL" -f "$base.yaml" --today "$TODAY" export --format journal --to "$end" --out "$base.journal"
        read -r ct cm < <(run "capital-r$rules-y$years" "$CAPITAL" -f "$base.yaml" --today "$TODAY" forecast --until "$end" --by day --expected --format csv)
        read -r ht hm < <(run "hledger-r$rules-y$years" hledger -f "$base.journal" register -D -H -E "--forecast=$TODAY..$after" -b "$TODAY" -e "$after" \
            assets:cash assets:debit liabilities:credit-card -O csv)
        agree=$(python3 - "$OUT/capital-r$rules-y$years.out" "$OUT/hledger-r$rules-y$years.out" <<'PY'
import csv, sys
ours = {row["end"]: row["closing"] for row in csv.DictReader(open(sys.argv[1]))}
theirs = {row["date"]: row["total"].replace(" RUB", "") for row in csv.DictReader(open(sys.argv[2]))}
differ = [day for day in ours if theirs.get(day) != ours[day]]
print("yes" if not differ and len(ours) == len(theirs) else f"NO:{len(differ)}/{len(ours)}")
PY
)
        printf "%-6s %-5s %-9s %10s %10s %10.1f %10.1f %8.0f %8.0f\n" "$rules" "$years" "$agree" "$ct" "$ht" \
            "$(echo "$cm / 1024" | bc -l)" "$(echo "$hm / 1024" | bc -l)" "$(echo "$ht / ($ct + 0.0001)" | bc -l)" "$(echo "$hm / $cm" | bc -l)"
    done
done
