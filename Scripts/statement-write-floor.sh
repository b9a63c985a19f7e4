#!/usr/bin/env bash
# What SQLite alone needs to write a 100 000-line statement import, with no Swift in the way:
# the rows `capital import` wrote are copied with INSERT … SELECT into a fresh ledger, once into
# today's schema (as the import's bulk write leaves it: the per-posting trigger and the postings'
# index by transaction set aside, built again before the commit) and once into an integer-keyed
# variant (postings pointing at their transaction's and account's row numbers, 8-byte import keys;
# the account's foreign key left out, as SQLite cannot point one at a row number), the schema change
# docs/performance.md ("Statement import") weighs.
#
# Usage: Scripts/statement-write-floor.sh BENCHDIR [CAPITAL]
#   BENCHDIR  made by `Scripts/statement-bench.py BENCHDIR` (big.csv, big.rules); base.db, the
#             accounts the statement names, is made here when missing
#   CAPITAL   the binary (default .build/release/capital)
# Needs the sqlite3 shell. Prints the seconds of each step and their sum, for each schema.
set -euo pipefail

bench=${1:?usage: Scripts/statement-write-floor.sh BENCHDIR [CAPITAL]}
capital=${2:-.build/release/capital}
[ -f "$bench/big.csv" ] || { echo "statement-write-floor: $bench/big.csv: missing (run Scripts/statement-bench.py $bench)" >&2; exit 1; }
command -v sqlite3 > /dev/null || { echo "statement-write-floor: the sqlite3 shell is not installed" >&2; exit 1; }

if [ ! -f "$bench/base.db" ]; then
    "$capital" --db "$bench/base.db" init --currency EUR > /dev/null
    "$capital" --db "$bench/base.db" account add Giro --kind debit > /dev/null
    "$capital" --db "$bench/base.db" account add max --kind debit > /dev/null
    "$capital" --db "$bench/base.db" account add cash --kind cash > /dev/null
    "$capital" --db "$bench/base.db" account add depot --kind deposit > /dev/null
fi
source=$bench/floor-source.db
cp "$bench/base.db" "$source"
# (The statement's closing balance differs from the ledger's, which starts empty: that warning is
# not this script's business.)
if ! "$capital" --db "$source" import "$bench/big.csv" --account Giro --rules "$bench/big.rules" --create-missing --today 2025-06-01 \
    > /dev/null 2> "$bench/floor-import.err"; then
    cat "$bench/floor-import.err" >&2
    exit 1
fi

# Runs the SQL on stdin against a fresh copy of base.db; prints each timed step's seconds and the sum.
timed() {
    local name=$1 target=$bench/floor-target.db
    cp "$bench/base.db" "$target"
    rm -f "$target-wal" "$target-shm"
    printf '%-40s' "$name"
    sqlite3 "$target" 2>&1 | awk '/^Run Time/ { printf " %s", $4; sum += $4; next } { print; failed = 1 } END { printf "  = %.3f s\n", sum; if (failed) exit 1 }'
    rm -f "$target" "$target-wal" "$target-shm"
}

# WHERE true keeps SQLite from copying the pages of an identical table as they are (its transfer
# optimisation), which no import of new lines could do.
# Both start so: the bulk write's page cache, the imported rows beside, and the categories the
# import created (--create-missing) copied first, outside the clock.
prologue="PRAGMA cache_size = -16384;
ATTACH '$source' AS source;
INSERT INTO account SELECT * FROM source.account WHERE id NOT IN (SELECT id FROM main.account);"

timed "today's schema (text keys)" << SQL
$prologue
PRAGMA foreign_keys = ON;
BEGIN;
DROP TRIGGER balanceMonth_postingInsert;
DROP INDEX posting_txn;
.timer on
INSERT INTO txn SELECT * FROM source.txn WHERE true;
INSERT INTO posting SELECT * FROM source.posting WHERE true;
CREATE INDEX posting_txn ON posting(txnId);
COMMIT;
SQL

timed "integer keys (txn and account rows)" << SQL
$prologue
BEGIN;
DROP TABLE posting;
DROP TABLE txn;
CREATE TABLE txn (n INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, createdAt DATETIME NOT NULL, updatedAt DATETIME NOT NULL,
    version INTEGER NOT NULL DEFAULT 1, deleted BOOLEAN NOT NULL DEFAULT 0, day INTEGER NOT NULL, seq INTEGER NOT NULL,
    payee TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '', spender TEXT NOT NULL DEFAULT '', tags TEXT NOT NULL DEFAULT '',
    importKey INTEGER);
CREATE INDEX txn_day_seq ON txn(day, seq);
CREATE INDEX txn_seq ON txn(seq);
CREATE UNIQUE INDEX txn_importKey ON txn(importKey);
CREATE TABLE posting (n INTEGER PRIMARY KEY, txn INTEGER NOT NULL REFERENCES txn(n) ON DELETE CASCADE,
    account INTEGER NOT NULL, position INTEGER NOT NULL, amountMinor INTEGER NOT NULL,
    currency TEXT NOT NULL, note TEXT NOT NULL DEFAULT '');
CREATE INDEX posting_account ON posting(account);
COMMIT;
-- The postings with their transaction's and account's row numbers, looked up before the clock starts.
CREATE TEMP TABLE postings AS
    SELECT t.rowid AS txn, a.rowid AS account, p.position, p.amountMinor, p.currency, p.note
    FROM source.posting p JOIN source.txn t ON t.id = p.txnId JOIN main.account a ON a.id = p.accountId ORDER BY p.rowid;
PRAGMA foreign_keys = ON;
BEGIN;
.timer on
INSERT INTO txn SELECT rowid, id, createdAt, updatedAt, version, deleted, day, seq, payee, note, spender, tags, random()
    FROM source.txn WHERE true;
INSERT INTO posting(txn, account, position, amountMinor, currency, note) SELECT * FROM temp.postings WHERE true;
CREATE INDEX posting_txn ON posting(txn);
COMMIT;
SQL
rm -f "$source" "$source-wal" "$source-shm" "$bench/floor-import.err"
