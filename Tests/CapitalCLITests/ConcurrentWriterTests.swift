import CapitalCore
import Foundation
import GRDB
import Testing

@Suite("CLI: concurrent writers")
struct ConcurrentWriterTests {
    /// Two `capital` processes writing to one database at once both succeed: the second waits on
    /// the busy timeout instead of failing with "database is locked", and nothing is lost.
    @Test func twoProcessesWritingAtOnceBothSucceed() throws {
        let cli = try CLI.initialized()
        let perProcess = 12
        let failures = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for index in 0..<perProcess {
                let result = cli.runProcess(["spend", "\(index + 1)", "Groceries", "--payee", "writer \(writer)", "--on", "2025-01-01"])
                if result.status != 0 { failures.withLock { $0.append(result.description) } }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let rows = try cli.rows(["tx", "list", "--format", "json"])
        #expect(rows.count == 2 * perProcess)
        let total = rows.compactMap { ($0["amount"] as? String).flatMap(minorUnits) }.reduce(0, +)
        #expect(total == Int64(2 * (1...perProcess).reduce(0, +)) * 100)
    }

    /// Writers running `capital` one command after another, all at once, with a mix of
    /// transactions (`spend`, `tx add` with split postings), `schedule edit`s of single
    /// occurrences, and `post` of a daily schedule up to a day that moves on: every command
    /// succeeds (waiting on the busy timeout, never "database is locked"), every transaction and
    /// every edit is there, and `post` posts each occurrence once, none twice and none missed.
    ///
    /// 4 writers × 50 commands by default (`CAPITAL_WRITERS`, `CAPITAL_WRITES` change it;
    /// `Scripts/concurrency-test.sh` runs it alone).
    @Test func writersMixingTransactionsEditsAndPostLoseNothing() throws {
        let environment = ProcessInfo.processInfo.environment
        let writers = environment["CAPITAL_WRITERS"].flatMap(Int.init) ?? 4
        let writes = environment["CAPITAL_WRITES"].flatMap(Int.init) ?? 50
        let cli = try CLI.initialized()
        let start = try Day(iso: "2025-01-01")
        cli.ok([
            "--today", "2024-12-31", "schedule", "add", "Coffee", "--rule", "daily", "--start", start.iso, "--amount", "150", "--from", "VTB Debit",
            "--to", "Eating out",
        ])

        let began = Date()
        let failures = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for index in 0..<writes {
                let args = ConcurrentWriterTests.command(writer: writer, index: index, writes: writes, start: start)
                let result = cli.runProcess(args)
                if result.status != 0 || result.stderr != "" {
                    failures.withLock { $0.append("capital \(args.joined(separator: " ")): \(result)") }
                }
            }
        }
        let seconds = Date().timeIntervalSince(began)
        print("concurrent writers: \(writers) × \(writes) commands in \(String(format: "%.1f", seconds)) s")
        let failed = failures.withLock { $0 }
        #expect(failed.isEmpty, "\(failed.count) commands failed, first: \(failed.first ?? "")")

        let queue = try LedgerChecks.open(cli.db)
        defer { try? queue.close() }
        try queue.read { db in
            #expect(try LedgerChecks.problems(db) == [])
            // Every transaction, once, whole.
            let counts = try LedgerChecks.postingCounts(db, payeePrefix: "w")
            for writer in 0..<writers {
                for index in 0..<writes where index % 4 >= 2 {
                    let postings = index % 4 == 2 ? 2 : 3
                    #expect(counts["w\(writer)-\(index)"] == [postings], "w\(writer)-\(index): \(counts["w\(writer)-\(index)"] ?? [])")
                }
            }
            #expect(counts.count == writers * (0..<writes).filter { $0 % 4 >= 2 }.count)
            // Every edit: its own occurrence's amount.
            let scheduleID = try #require(try String.fetchOne(db, sql: "SELECT id FROM schedule WHERE name = 'Coffee' AND deleted = 0"))
            var amounts: [Int: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT original, amountMinor FROM scheduleException WHERE scheduleId = ?", arguments: [scheduleID])
            {
                amounts[row["original"]] = row["amountMinor"]
            }
            var edits = 0
            for writer in 0..<writers {
                for index in 0..<writes where index % 4 == 1 {
                    let (day, amount) = ConcurrentWriterTests.edit(writer: writer, index: index, writes: writes, start: start)
                    #expect(amounts[day.number] == amount * 100, "the edit of \(day) by writer \(writer)")
                    edits += 1
                }
            }
            #expect(amounts.count == edits)
            // `post`: each occurrence up to the last --until once, as one transaction on its day.
            let last = (0..<writes).filter { $0 % 4 == 0 }.map { ConcurrentWriterTests.until(index: $0, start: start) }.max()
            let posted = try Row.fetchAll(
                db,
                sql: """
                    SELECT m.day AS original, txn.day AS day, txn.payee AS payee
                    FROM expectedMark m JOIN txn ON txn.id = m.txnId WHERE m.kind = 'schedule' AND m.instrumentId = ?
                    ORDER BY original
                    """, arguments: [scheduleID])
            let expected = last.map { Array(start.number...$0.number) } ?? []
            #expect(posted.map { $0["original"] as Int } == expected)
            #expect(posted.allSatisfy { ($0["day"] as Int) == ($0["original"] as Int) && ($0["payee"] as String) == "Coffee" })
            let made = try Row.fetchAll(db, sql: "SELECT day, COUNT(*) AS n FROM txn WHERE payee = 'Coffee' AND deleted = 0 GROUP BY day")
            #expect(made.count == expected.count, "transactions made by post: \(made.count), occurrences: \(expected.count)")
            #expect(made.allSatisfy { ($0["n"] as Int) == 1 }, "an occurrence posted twice")
        }
    }

    /// The `index`th command of `writer`: post, schedule edit, spend or split `tx add`, in turn.
    static func command(writer: Int, index: Int, writes: Int, start: Day) -> [String] {
        let payee = "w\(writer)-\(index)"
        switch index % 4 {
        case 0:
            return ["post", "--today", "2025-12-31", "--until", until(index: index, start: start).iso]
        case 1:
            let (day, amount) = edit(writer: writer, index: index, writes: writes, start: start)
            return ["schedule", "edit", "Coffee", "--scope", "one", "--at", day.iso, "--amount", "\(amount)"]
        case 2:
            return ["spend", "\(index + 1)", "Groceries", "--payee", payee, "--on", "2025-01-15"]
        default:
            return [
                "tx", "add", "--payee", payee, "--on", "2025-01-16", "--posting", "Groceries=\(index)", "--posting", "Transport=1", "--posting",
                "VTB Debit",
            ]
        }
    }

    /// How far the `index`th command posts: a day moving on with the index, so that writers post
    /// the same occurrences at about the same time.
    static func until(index: Int, start: Day) -> Day { start.advanced(by: index / 4) }

    /// The occurrence a schedule edit changes and its new amount: a day of its own, after every
    /// day `post` reaches, so the edits and the posts do not overlap.
    static func edit(writer: Int, index: Int, writes: Int, start: Day) -> (Day, Int64) {
        (start.advanced(by: 400 + writer * writes + index), Int64(200 + writer * 10 + index % 7))
    }
}

/// A value shared between threads behind a lock.
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
