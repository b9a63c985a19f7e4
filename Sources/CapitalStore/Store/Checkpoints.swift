import CapitalCore
import GRDB

/// Balances at checkpoints: the table `balanceMonth` holds, per account, currency and month, the
/// sum of the live postings dated in that month, the sums of the positive and of the negative
/// ones (what keeps every balance within Int64, `postingSums`), and their count. A balance at the end of any month
/// (a checkpoint) is the sum of the months up to it; a balance on any day is the checkpoint before
/// its month plus the postings of its month through that day. Reading today's balances therefore
/// costs O(accounts × months) however many transactions the ledger holds.
///
/// Triggers keep the table in the same write as every insert, edit or delete of a posting and
/// every change of a transaction's day or deleted flag, whichever code (or a hand-typed SQL
/// statement) makes it. `capital check` compares the table with the postings; `check --repair`
/// rebuilds it (derived data only).
enum Checkpoints {
    /// The first day (a day number) of the month of the day number `day`, in SQL.
    private static func month(_ day: String) -> String {
        "CAST(julianday(date((\(day)) * 86400, 'unixepoch', 'start of month')) - 2440587.5 AS INTEGER)"
    }

    /// Adds a row's sums to the month's, or makes it the month's row.
    private static let accumulate = """
        ON CONFLICT DO UPDATE SET amountMinor = amountMinor + excluded.amountMinor,
            positiveMinor = positiveMinor + excluded.positiveMinor, negativeMinor = negativeMinor + excluded.negativeMinor,
            postings = postings + excluded.postings;
        """

    /// Adds `sign` × the postings of transaction `txn` (an SQL expression) at day `day`, when `live`.
    private static func moveTransaction(_ txn: String, day: String, sign: String, live: String) -> String {
        """
        INSERT INTO balanceMonth(accountId, currency, month, amountMinor, positiveMinor, negativeMinor, postings)
        SELECT accountId, currency, \(month(day)), \(sign) * SUM(amountMinor), \(sign) * SUM(MAX(amountMinor, 0)),
            \(sign) * SUM(MIN(amountMinor, 0)), \(sign) * COUNT(*)
        FROM posting WHERE txnId = \(txn) AND \(live) GROUP BY accountId, currency
        \(accumulate)
        """
    }

    /// Adds `sign` × one posting (`row` is NEW or OLD) when its transaction is live.
    private static func movePosting(_ row: String, sign: String) -> String {
        """
        INSERT INTO balanceMonth(accountId, currency, month, amountMinor, positiveMinor, negativeMinor, postings)
        SELECT \(row).accountId, \(row).currency, \(month("txn.day")), \(sign) * \(row).amountMinor,
            \(sign) * MAX(\(row).amountMinor, 0), \(sign) * MIN(\(row).amountMinor, 0), \(sign)
        FROM txn WHERE txn.id = \(row).txnId AND txn.deleted = 0
        \(accumulate)
        """
    }

    /// A month of one posting's account left without postings goes, so that the table equals a
    /// rebuild row for row.
    private static func prune(_ row: String) -> String {
        "DELETE FROM balanceMonth WHERE accountId = \(row).accountId AND currency = \(row).currency AND postings = 0;"
    }

    /// The months of a transaction's accounts left without postings go.
    private static func pruneTransaction(_ txn: String) -> String {
        """
        DELETE FROM balanceMonth WHERE postings = 0
        AND accountId IN (SELECT accountId FROM posting WHERE txnId = \(txn));
        """
    }

    /// The table and its triggers, as migration v8 created them. Never edit: a change is a new
    /// migration.
    static let schema = """
        CREATE TABLE balanceMonth (
            accountId TEXT NOT NULL,
            currency TEXT NOT NULL,
            month INTEGER NOT NULL,
            amountMinor INTEGER NOT NULL,
            positiveMinor INTEGER NOT NULL,
            negativeMinor INTEGER NOT NULL,
            postings INTEGER NOT NULL,
            PRIMARY KEY (accountId, currency, month)
        ) WITHOUT ROWID;
        CREATE TRIGGER balanceMonth_postingInsert AFTER INSERT ON posting BEGIN
            \(movePosting("NEW", sign: "1"))
        END;
        CREATE TRIGGER balanceMonth_postingDelete AFTER DELETE ON posting BEGIN
            \(movePosting("OLD", sign: "-1"))
            \(prune("OLD"))
        END;
        CREATE TRIGGER balanceMonth_postingUpdate AFTER UPDATE OF txnId, accountId, amountMinor, currency ON posting BEGIN
            \(movePosting("OLD", sign: "-1"))
            \(movePosting("NEW", sign: "1"))
            \(prune("OLD"))
        END;
        CREATE TRIGGER balanceMonth_txnUpdate AFTER UPDATE OF day, deleted ON txn
        WHEN OLD.day IS NOT NEW.day OR OLD.deleted IS NOT NEW.deleted BEGIN
            \(moveTransaction("OLD.id", day: "OLD.day", sign: "-1", live: "OLD.deleted = 0"))
            \(moveTransaction("NEW.id", day: "NEW.day", sign: "1", live: "NEW.deleted = 0"))
            \(pruneTransaction("OLD.id"))
        END;
        CREATE TRIGGER balanceMonth_txnDelete BEFORE DELETE ON txn BEGIN
            DELETE FROM posting WHERE txnId = OLD.id;
        END;
        """

    /// The table's rows as the postings say they should be: sums per account, currency and month
    /// (grouped by day first, so the month is worked out once a day, not once a posting).
    static let recomputed = """
        SELECT accountId, currency, \(month("day")) AS month, SUM(amount) AS amountMinor, SUM(positive) AS positiveMinor,
            SUM(negative) AS negativeMinor, SUM(n) AS postings
        FROM (
            SELECT posting.accountId, posting.currency, txn.day, SUM(posting.amountMinor) AS amount,
                SUM(MAX(posting.amountMinor, 0)) AS positive, SUM(MIN(posting.amountMinor, 0)) AS negative, COUNT(*) AS n
            FROM posting JOIN txn ON txn.id = posting.txnId WHERE txn.deleted = 0
            GROUP BY posting.accountId, posting.currency, txn.day
        ) GROUP BY accountId, currency, month
        """

    /// Replaces the table's rows with what the postings say.
    static let rebuild = """
        DELETE FROM balanceMonth;
        INSERT INTO balanceMonth(accountId, currency, month, amountMinor, positiveMinor, negativeMinor, postings) \(recomputed);
        """

    /// The page cache of a bulk write, in KiB.
    static let bulkCacheKiB = 65_536

    /// Runs `body`, which inserts many transactions and postings (and changes nothing else), with
    /// the per-posting trigger and the index of postings by transaction set aside, then adds the
    /// new postings' sums to the months in one grouped pass and builds the index again. Random
    /// transaction ids make the trigger and that index touch random pages for every posting: an
    /// import of 10^5 transactions took 29.7 s that way and takes 17.5 s so. It runs inside the
    /// caller's write transaction, so a failure or a crash rolls it all back, trigger and index
    /// included.
    /// - Complexity: O(P log P) for the P postings written, plus building the index again over
    ///   every posting of the ledger (which is why `Store.insert` uses it only for writes that
    ///   are large beside the ledger).
    ///
    /// `written`, when the caller has them, are the transactions `body` inserts (live ones): their
    /// month sums are then added from them, not read back by joining every new posting to its
    /// transaction by id.
    ///
    /// `cacheKiB` nil keeps the connection's page cache (a join, whose rows come in key order,
    /// gains nothing from a larger one and would hold tens of megabytes more).
    static func bulkInsert(_ db: Database, written: [Transaction]? = nil, cacheKiB: Int? = bulkCacheKiB, _ body: () throws -> Void) throws {
        var bulk = try BulkWrite(db, cacheKiB: cacheKiB, joining: written == nil)
        do {
            try body()
            for transaction in written ?? [] { try bulk.wrote(transaction) }
        } catch {
            bulk.restoreCache()
            throw error
        }
        try bulk.finish()
    }

    /// A bulk write under way (`bulkInsert`), for a writer that inserts transactions as it gets
    /// them: begun, told of each live transaction it wrote (unless it `joins`: then the months are
    /// read back from the new postings), finished inside the same write transaction.
    struct BulkWrite {
        private let db: Database
        private let setAside: [Row]
        private let before: Int64
        private let cache: Int
        private let joins: Bool
        private var sums: [BalanceKey: [Int: MonthSum]] = [:]

        init(_ db: Database, cacheKiB: Int? = bulkCacheKiB, joining joins: Bool = false) throws {
            self.db = db
            self.joins = joins
            setAside = try Row.fetchAll(
                db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name IN ('balanceMonth_postingInsert', 'posting_txn') ORDER BY type")
            for row in setAside {
                try db.execute(sql: "DROP \((row["type"] as String).uppercased()) \((row["name"] as String).quotedDatabaseIdentifier)")
            }
            before = try Store.lastPosting(db)
            // Random transaction ids still land on random pages of the transactions' own index: a
            // larger page cache (allocated only as it fills) keeps them from being written twice.
            cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            if let cacheKiB { try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)") }
        }

        /// Counts a live transaction written since the write began in its months.
        mutating func wrote(_ transaction: Transaction) throws { try Checkpoints.add(transaction, to: &sums) }

        /// Adds the months, builds the trigger and the index again, restores the page cache.
        func finish() throws {
            defer { restoreCache() }
            if joins {
                try db.execute(
                    sql: """
                        INSERT INTO balanceMonth(accountId, currency, month, amountMinor, positiveMinor, negativeMinor, postings)
                        SELECT accountId, currency, \(month("day")) AS month, SUM(amount), SUM(positive), SUM(negative), SUM(n)
                        FROM (
                            SELECT posting.accountId, posting.currency, txn.day, SUM(posting.amountMinor) AS amount,
                                SUM(MAX(posting.amountMinor, 0)) AS positive, SUM(MIN(posting.amountMinor, 0)) AS negative, COUNT(*) AS n
                            FROM posting JOIN txn ON txn.id = posting.txnId WHERE posting.rowid > ? AND txn.deleted = 0
                            GROUP BY posting.accountId, posting.currency, txn.day
                        ) WHERE true GROUP BY accountId, currency, month
                        \(accumulate)
                        """, arguments: [before])
            } else {
                try Checkpoints.add(sums, db)
            }
            for row in setAside { try db.execute(sql: row["sql"]) }
        }

        /// The page cache back to its size before the write (also when the write fails: the
        /// rollback brings back the trigger and the index, not the cache's size).
        func restoreCache() { try? db.execute(sql: "PRAGMA cache_size = \(cache)") }
    }

    /// A month's sums of one account in one currency.
    struct MonthSum {
        var amount: Int64 = 0
        var positive: Int64 = 0
        var negative: Int64 = 0
        var postings: Int64 = 0
    }

    /// The sums per account, currency and month (its first day's number) of `transactions`'
    /// postings, as the table keeps them.
    /// - Complexity: O(postings).
    static func monthSums(_ transactions: [Transaction]) throws -> [BalanceKey: [Int: MonthSum]] {
        var sums: [BalanceKey: [Int: MonthSum]] = [:]
        for transaction in transactions { try add(transaction, to: &sums) }
        return sums
    }

    /// Adds `transaction`'s postings to `sums`.
    static func add(_ transaction: Transaction, to sums: inout [BalanceKey: [Int: MonthSum]]) throws {
        let month = transaction.day.startOfMonth.number
        for posting in transaction.postings {
            let minor = posting.amount.minor
            var sum = sums[BalanceKey(accountID: posting.accountID, currency: posting.amount.currency), default: [:]][month, default: MonthSum()]
            sum.amount = try checkedSum(sum.amount, minor)
            sum.positive = try checkedSum(sum.positive, max(minor, 0))
            sum.negative = try checkedSum(sum.negative, min(minor, 0))
            sum.postings += 1
            sums[BalanceKey(accountID: posting.accountID, currency: posting.amount.currency), default: [:]][month] = sum
        }
    }

    /// Adds `sums` to the table's months.
    static func add(_ sums: [BalanceKey: [Int: MonthSum]], _ db: Database) throws {
        let statement = try db.makeStatement(
            sql:
                "INSERT INTO balanceMonth(accountId, currency, month, amountMinor, positiveMinor, negativeMinor, postings) VALUES (?, ?, ?, ?, ?, ?, ?)"
                + accumulate)
        for (key, months) in sums {
            for (month, sum) in months {
                try statement.execute(arguments: [key.accountID, key.currency.code, month, sum.amount, sum.positive, sum.negative, sum.postings])
            }
        }
    }

    /// Every live posting dated before `day` (the first day of a month), summed per account and
    /// currency: the balances at the end of the day before, and how many postings each account had.
    /// - Complexity: O(accounts × months before `day`), independent of the number of postings.
    static func balances(_ db: Database, before day: Day) throws -> (balances: [BalanceKey: Int64], postings: [String: Int]) {
        precondition(day == day.startOfMonth, "checkpoints are at month ends")
        var balances: [BalanceKey: Int64] = [:]
        var postings: [String: Int] = [:]
        var currencies: [String: Currency] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT accountId, currency, SUM(amountMinor), SUM(postings) FROM balanceMonth WHERE month < ? GROUP BY accountId, currency"),
            arguments: [day.number])
        while let row = try rows.next() {
            let code: String = row[1]
            let currency = try currencies[code] ?? Currency(code)
            currencies[code] = currency
            let account: String = row[0]
            balances[BalanceKey(accountID: account, currency: currency)] = row[2]
            postings[account, default: 0] += row[3] as Int
        }
        return (balances, postings)
    }

    /// A checkpoint row that differs from what the postings say: its key (`account currency
    /// YYYY-MM`) and both rows as `sum/positive/negative/postings` (nil where there is no row).
    struct Difference: Equatable {
        var key: String
        var stored: String?
        var expected: String?
    }

    /// The rows of the table that differ from a rebuild, in key order. Damaged values (text
    /// where a number belongs) are differences, never a trap.
    /// - Complexity: O(postings).
    static func differences(_ db: Database) throws -> [Difference] {
        func rows(_ sql: String) throws -> [String: String] {
            var result: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: sql) {
                // A month between the years 1 and 9999 is shown as YYYY-MM, anything else as stored.
                let month = row.rawInteger(2).flatMap { (-719_162...2_932_896).contains($0) ? Day(Int($0)) : nil }
                let key =
                    "\(row.rawText(0) ?? row.shown(0)) \(row.rawText(1) ?? row.shown(1)) \(month.map { String($0.iso.prefix(7)) } ?? row.shown(2))"
                result[key, default: ""] += "\(row.shown(3))/\(row.shown(4))/\(row.shown(5))/\(row.shown(6))"
            }
            return result
        }
        let stored = try rows("SELECT accountId, currency, month, amountMinor, positiveMinor, negativeMinor, postings FROM balanceMonth")
        let expected = try rows(recomputed)
        return Set(stored.keys).union(expected.keys).sorted().compactMap { key in
            stored[key] == expected[key] ? nil : Difference(key: key, stored: stored[key], expected: expected[key])
        }
    }
}
