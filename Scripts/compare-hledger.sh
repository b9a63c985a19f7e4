#!/usr/bin/env bash
# capital against hledger on the same work: generated ledgers of R rules over Y years, each
# forecast day by day by both, the daily balances compared, and wall time and peak memory of each
# (median of RUNS runs). Installs nothing: hledger comes from the distribution
# (Debian/Ubuntu: `sudo apt-get install hledger`, which gives 1.25 on Debian 12).
#
# Usage: Scripts/compare-hledger.sh [RULES...] ; env YEARS="1 10 30" RUNS=3 OUT=/tmp/capital-compare CAPITAL_BIN=path
#
# History mode (HISTORY="10000 100000 1000000"): a ledger of 100 rules with N posted transactions
# of history, imported into a database and exported from it as a journal; capital's `balance`
# and `forecast --by day --expected` on the database against hledger's `balance` and
# `register -D --forecast` on the journal, balances compared (every account, every day).
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

# ratio A B: A ÷ B, rounded
ratio() { printf "%.0f" "$(echo "$1 / ($2 + 0.0001)" | bc -l)"; }
megabytes() { printf "%.1f" "$(echo "$1 / 1024" | bc -l)"; }

if [ -n "${HISTORY:-}" ]; then
    day_before=$(python3 -c "import datetime; print(datetime.date.fromisoformat('$TODAY') - datetime.timedelta(days=1))")
    printf "%-8s %-7s %-7s %8s %8s %8s %8s %8s %8s %9s %9s %9s %9s\n" history balance days "import s" "c bal s" "h bal s" \
        "c fc s" "h reg s" "bal ×" "c bal MB" "h bal MB" "c fc MB" "h reg MB"
    for history in $HISTORY; do
        base="$OUT/h$history"
        rm -f "$base.sqlite" "$base.sqlite-wal" "$base.sqlite-shm"
        "$CAPITAL" sample generate --rules 100 --years 1 --history "$history" --out "$base.yaml"
        imported=$( { /usr/bin/time -f "%e" "$CAPITAL" --db "$base.sqlite" import "$base.yaml" >/dev/null; } 2>&1 | tail -1)
        db=("$CAPITAL" --db "$base.sqlite" --today "$TODAY")
        end=$("${db[@]}" forecast --until +1y --by day --expected --format json |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["periods"][-1]["end"])')
        after=$(python3 -c "import datetime; print(datetime.date.fromisoformat('$end') + datetime.timedelta(days=1))")
        "${db[@]}" export --format journal --to "$end" --out "$base.journal"
        # Balances at the end of the day before today (hledger's -e is exclusive).
        read -r cbt cbm < <(run "capital-bal-h$history" "${db[@]}" balance --on "$day_before" --format csv)
        read -r hbt hbm < <(run "hledger-bal-h$history" hledger -f "$base.journal" balance -e "$TODAY" --flat -O csv)
        read -r cft cfm < <(run "capital-fc-h$history" "${db[@]}" forecast --until "$end" --by day --expected --format csv)
        read -r hrt hrm < <(run "hledger-reg-h$history" hledger -f "$base.journal" register -D -H -E "--forecast=$TODAY..$after" -b "$TODAY" \
            -e "$after" assets:cash assets:debit liabilities:credit-card -O csv)
        agree=$(python3 - "$OUT" "$history" <<'PY'
import csv, sys
out, n = sys.argv[1], sys.argv[2]
def amount(text):
    return text.replace(" RUB", "").replace(",", "").strip() or "0"
# capital's accounts by name; the journal names them ROOT:KIND:NAME (a colon in a name is "-").
ours = {row["account"].replace(":", "-"): row["balance"]
        for row in csv.DictReader(open(f"{out}/capital-bal-h{n}.out")) if row["section"] == "accounts"}
theirs = {row["account"].split(":")[-1]: amount(row["balance"]) for row in csv.DictReader(open(f"{out}/hledger-bal-h{n}.out"))}
differ = [name for name in ours if float(ours[name]) != float(theirs.get(name, "0"))]
balance = "yes" if not differ else f"NO:{len(differ)}/{len(ours)}"
days = {row["end"]: row["closing"] for row in csv.DictReader(open(f"{out}/capital-fc-h{n}.out"))}
totals = {row["date"]: amount(row["total"]) for row in csv.DictReader(open(f"{out}/hledger-reg-h{n}.out"))}
wrong = [day for day in days if totals.get(day) != days[day]]
print(balance, "yes" if not wrong and len(days) == len(totals) else f"NO:{len(wrong)}/{len(days)}")
PY
)
        read -r agree_balance agree_days <<< "$agree"
        printf "%-8s %-7s %-7s %8s %8s %8s %8s %8s %8s %9s %9s %9s %9s\n" "$history" "$agree_balance" "$agree_days" "$imported" "$cbt" "$hbt" \
            "$cft" "$hrt" "$(ratio "$hbt" "$cbt")" "$(megabytes "$cbm")" "$(megabytes "$hbm")" "$(megabytes "$cfm")" "$(megabytes "$hrm")"
    done
    exit 0
fi

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
