import Foundation
import GRDB
import Testing

/// `capital` killed with SIGKILL at random moments while it writes: after every kill the database
/// passes SQLite's integrity and foreign-key checks, every transaction balances, the balance
/// checkpoints every write moves equal the postings, every command that
/// reported success is there, and the command in flight is there whole or not at all.
///
/// The test kills at least 50 processes; `Scripts/crash-test.sh N` runs the same driver for N kills
/// (through `CAPITAL_CRASH_KILLS`).
@Suite("CLI: crash safety")
struct CrashTests {
    @Test func killedWritersLeaveEveryCommandWholeOrAbsent() throws {
        let environment = ProcessInfo.processInfo.environment
        let kills = environment["CAPITAL_CRASH_KILLS"].flatMap(Int.init) ?? 100
        // The suite's run stays bounded; the script's long runs are not.
        let budget: TimeInterval = environment["CAPITAL_CRASH_KILLS"] == nil ? 75 : .infinity
        let driver = try CrashDriver()
        let report = try driver.run(kills: kills, budget: budget)
        print("crash test: \(report)")
        #expect(report.problems == [], "\(report.problems.prefix(10).joined(separator: "\n"))")
        #expect(report.kills >= min(kills, 50), "only \(report.kills) kills in \(Int(report.seconds)) s: \(report)")
        // Some kills must land after a commit and some before one, or the test proved little.
        #expect(report.killedPresent > 0 && report.killedAbsent > 0, "\(report)")
    }
}

/// Runs `capital` write commands against one database and kills them with SIGKILL after a random delay.
final class CrashDriver {
    /// One command of the run: what it should leave in the ledger (payees with their posting counts).
    struct Command {
        var kind: Kind
        var args: [String]
        var expected: [(payee: String, postings: Int)]
        /// Known after it ran: present or absent (nil while in flight).
        var present: Bool?
    }

    enum Kind: String, CaseIterable {
        /// `spend`, `transfer`, `tx add` with four postings, `import` of 5 and of 60 transactions
        /// (whose commit writes the log long enough for kills to land in it).
        case spend, transfer, split, `import`, bigImport
    }

    struct Report: CustomStringConvertible {
        var commands = 0
        var succeeded = 0
        var kills = 0
        /// Killed after its transaction committed (present whole).
        var killedPresent = 0
        /// Killed before it committed (absent).
        var killedAbsent = 0
        /// Killed in the middle of writing its transaction: the write-ahead log ended in frames no
        /// commit frame follows.
        var killedMidWrite = 0
        var seconds: TimeInterval = 0
        var problems: [String] = []
        /// Each kind's run unkilled and where its commit was found.
        var timing = ""

        var description: String {
            "\(kills) kills survived (\(killedPresent) after the commit, \(killedAbsent) before it, \(killedMidWrite) of those "
                + "while writing the log) in \(commands) commands (\(succeeded) exited 0), \(String(format: "%.1f", seconds)) s; \(timing)"
        }
    }

    let cli: CLI
    private var commands: [Command] = []
    /// How long each kind of command takes unkilled, in seconds: kills are spread over it.
    private var duration: [Kind: TimeInterval] = [:]
    /// Where each kind's commit falls, in seconds after its start, as the kills' outcomes tell.
    private var commit: [Kind: TimeInterval] = [:]
    private var generator = SystemRandomNumberGenerator()

    init() throws {
        cli = try CLI.initialized()
        cli.ok(["account", "add", "Cash", "--kind", "cash"])
        cli.ok(["earn", "100000", "Salary", "--payee", "opening", "--on", "2025-01-01"])
    }

    /// Runs commands until `kills` of them were killed (or `budget` seconds passed), checking the
    /// database after every kill.
    func run(kills target: Int, budget: TimeInterval) throws -> Report {
        var report = Report()
        let start = Date()
        // Calibrate: each kind three times, unkilled (these count as commands that reported success).
        for kind in Kind.allCases {
            var times: [TimeInterval] = []
            for _ in 0..<3 {
                let began = Date()
                let status = try execute(make(kind), killAfter: nil, report: &report)
                times.append(Date().timeIntervalSince(began))
                if status != 0 { report.problems.append("calibration: capital \(kind) exited \(status)") }
            }
            duration[kind] = times.sorted()[1]
            commit[kind] = duration[kind]! * 0.85
        }
        var lastStamp: String?
        while report.kills < target && Date().timeIntervalSince(start) < budget && report.problems.count < 10 {
            let kind = Kind.allCases.randomElement(using: &generator)!
            // A debug `capital` spends most of its life starting up. A third of the kills are spread
            // over its whole run, a third over its last part (the database open, read and written),
            // a third just before its commit, while the log is being written.
            let life = duration[kind]! * 1.15
            let delay: TimeInterval
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: delay = Double.random(in: 0...life, using: &generator)
            case 1: delay = Double.random(in: (life * 0.5)...life, using: &generator)
            default: delay = max(0, commit[kind]! + Double.random(in: -0.004...0.001, using: &generator))
            }
            let status = try execute(make(kind), killAfter: delay, report: &report)
            if status == -SIGKILL {
                // Counted once: a log no process touched since the last kill tells nothing new.
                let wal = cli.db + "-wal"
                let stamp = (try? FileManager.default.attributesOfItem(atPath: wal)).map { "\($0[.modificationDate] ?? "") \($0[.size] ?? "")" }
                if CrashDriver.uncommittedFrames(wal: wal) > 0 && stamp != lastStamp { report.killedMidWrite += 1 }
                lastStamp = stamp
                try check(&report)
            }
            // Track the commit: a kill before it leaves the command absent, one after it present.
            // Steps of 3 % of the estimate: when other tests load the machine (a browser, a build),
            // commands slow down by tens of milliseconds, and half-millisecond steps never caught up.
            let present = commands[commands.count - 1].present == true
            let step = max(0.0005, commit[kind]! * 0.03)
            if present && delay <= commit[kind]! { commit[kind]! -= step }
            if !present && delay >= commit[kind]! {
                commit[kind]! += step
                // A command killed unfinished after its whole calibrated life runs slower now.
                if delay >= duration[kind]! { duration[kind]! *= 1.05 }
            }
        }
        try check(&report)
        report.seconds = Date().timeIntervalSince(start)
        report.timing = Kind.allCases.map { "\($0.rawValue) \(Int(duration[$0]! * 1000)) ms, commit at \(Int(commit[$0]! * 1000)) ms" }.joined(
            separator: "; ")
        return report
    }

    /// How many frames end the write-ahead log at `path` with no commit frame after them: a
    /// transaction cut off while its frames were being written. (Frames of the log's current
    /// generation are told by their salts; their checksums are not verified.)
    static func uncommittedFrames(wal path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 32 else { return 0 }
        func word(_ offset: Int) -> UInt32 { data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let pageSize = word(8) == 1 ? 65536 : Int(word(8))
        guard pageSize >= 512 else { return 0 }
        var offset = 32
        var pending = 0
        while offset + 24 + pageSize <= data.count, word(offset + 8) == word(16), word(offset + 12) == word(20) {
            // A commit frame records the database's size in pages; other frames record 0.
            pending = word(offset + 4) != 0 ? 0 : pending + 1
            offset += 24 + pageSize
        }
        return pending
    }

    /// A new command of `kind`, with payees no other command uses.
    private func make(_ kind: Kind) -> Command {
        let n = commands.count
        let payee = "crash-\(n)"
        let amount = "\(Int.random(in: 1...999, using: &generator)).\(Int.random(in: 10...99, using: &generator))"
        let on = ["--on", "2025-02-\(10 + n % 18)"]
        switch kind {
        case .spend:
            return Command(kind: kind, args: ["spend", amount, "Groceries", "--payee", payee] + on, expected: [(payee, 2)])
        case .transfer:
            return Command(
                kind: kind, args: ["transfer", amount, "--from", "VTB Debit", "--to", "Cash", "--payee", payee] + on, expected: [(payee, 2)])
        case .split:
            return Command(
                kind: kind,
                args: [
                    "tx", "add", "--payee", payee, "--posting", "Groceries=\(amount)", "--posting", "Transport=1.50", "--posting", "Housing=2",
                    "--posting", "VTB Debit",
                ]
                    + on,
                expected: [(payee, 4)])
        case .import, .bigImport:
            var yaml = "currency: RUB\ntransactions:\n"
            var expected: [(String, Int)] = []
            for k in 0..<(kind == .import ? 5 : 60) {
                let name = "\(payee)-\(k)"
                if k % 2 == 0 {
                    yaml += "  - date: 2025-03-\(10 + k % 20)\n    payee: \(name)\n    amount: \(amount)\n    from: VTB Debit\n    to: Groceries\n"
                    expected.append((name, 2))
                } else {
                    yaml += """
                          - date: 2025-03-\(10 + k % 20)
                            payee: \(name)
                            postings:
                              - account: Utilities
                                amount: \(amount)
                              - account: Cash
                                amount: -1
                              - account: VTB Debit

                        """
                    expected.append((name, 3))
                }
            }
            let file = cli.path("import-\(n).yaml")
            _ = FileManager.default.createFile(atPath: file, contents: Data(yaml.utf8))
            return Command(kind: kind, args: ["import", file], expected: expected)
        }
    }

    /// Runs `command`, killing it after `killAfter` seconds; returns its exit status, or minus the
    /// signal that ended it.
    private func execute(_ command: Command, killAfter delay: TimeInterval?, report: inout Report) throws -> Int32 {
        var command = command
        let pid = try cli.spawn(command.args)
        if let delay {
            usleep(useconds_t(delay * 1_000_000))
            // The child is not reaped until waitpid below: this pid is still ours, alive or a zombie.
            kill(pid, SIGKILL)
        }
        let status = CLI.wait(pid)
        report.commands += 1
        if status == 0 {
            command.present = true
            report.succeeded += 1
        } else if status == -SIGKILL {
            report.kills += 1
        } else {
            report.problems.append("capital \(command.args.joined(separator: " ")) exited \(status) unkilled: \(cli.spawnedOutput())")
            command.present = false
        }
        commands.append(command)
        return status
    }

    /// Opens the database as `capital` left it and checks it whole.
    private func check(_ report: inout Report) throws {
        let after = "after \(report.commands) commands, \(report.kills) kills"
        // Read-only: the next `capital` finds the database exactly as the killed one left it.
        let queue = try LedgerChecks.open(cli.db)
        defer { try? queue.close() }
        let (problems, found) = try queue.read { db in (try LedgerChecks.problems(db), try LedgerChecks.postingCounts(db, payeePrefix: "crash-")) }
        report.problems += problems.map { "\(after): \($0)" }
        for index in commands.indices {
            let command = commands[index]
            let shapes = command.expected.map { found[$0.payee] ?? [] }
            let whole = zip(command.expected, shapes).allSatisfy { $1 == [$0.postings] }
            let none = shapes.allSatisfy(\.isEmpty)
            let what = "\(after): command \(index) (capital \(command.args.joined(separator: " ")))"
            switch command.present {
            case true?:
                if !whole {
                    report.problems.append("\(what) reported success or was seen whole, but it is \(none ? "missing" : "partial: \(shapes)")")
                }
            case false?:
                if !none { report.problems.append("\(what) failed or was seen absent, but it is there: \(shapes)") }
            case nil:
                // In flight when killed: whole or nothing, and so it stays from now on.
                if whole {
                    commands[index].present = true
                    report.killedPresent += 1
                } else if none {
                    commands[index].present = false
                    report.killedAbsent += 1
                } else {
                    report.problems.append("\(what) was killed and left partly written: \(shapes)")
                    commands[index].present = false
                }
            }
        }
    }
}

/// Whole-database checks shared by the reliability tests.
enum LedgerChecks {
    /// The database at `path`, read-only (as `capital` left it: a read-only connection does not
    /// checkpoint on close).
    static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// What is wrong with the database: SQLite's integrity and foreign-key checks, and live
    /// transactions whose postings do not sum to zero in some currency. Empty when it is sound.
    static func problems(_ db: Database) throws -> [String] {
        var problems: [String] = []
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        if integrity != ["ok"] { problems.append("integrity_check: \(integrity.joined(separator: "; "))") }
        let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
        if !foreignKeys.isEmpty { problems.append("foreign_key_check: \(foreignKeys)") }
        let unbalanced = try Row.fetchAll(
            db,
            sql: """
                SELECT txn.id, posting.currency, SUM(posting.amountMinor) AS total
                FROM txn JOIN posting ON posting.txnId = txn.id
                WHERE txn.deleted = 0 GROUP BY txn.id, posting.currency HAVING total != 0
                """)
        if !unbalanced.isEmpty { problems.append("unbalanced transactions: \(unbalanced)") }
        let empty = try Row.fetchAll(db, sql: "SELECT id, payee FROM txn WHERE deleted = 0 AND id NOT IN (SELECT txnId FROM posting)")
        if !empty.isEmpty { problems.append("transactions without postings: \(empty)") }
        // Every write moves a balance checkpoint: the months must equal the live postings' sums,
        // summed here on their own (by date text, not by the store's day arithmetic).
        let months = """
            SELECT posting.accountId, posting.currency, date(txn.day * 86400, 'unixepoch', 'start of month'),
                SUM(posting.amountMinor), SUM(MAX(posting.amountMinor, 0)), SUM(MIN(posting.amountMinor, 0)), COUNT(*)
            FROM posting JOIN txn ON txn.id = posting.txnId WHERE txn.deleted = 0 GROUP BY 1, 2, 3
            """
        let stored = """
            SELECT accountId, currency, date(month * 86400, 'unixepoch'), amountMinor, positiveMinor, negativeMinor, postings FROM balanceMonth
            """
        let differing = try Row.fetchAll(db, sql: "SELECT * FROM (\(months) EXCEPT \(stored)) UNION ALL SELECT * FROM (\(stored) EXCEPT \(months))")
        if !differing.isEmpty { problems.append("balance checkpoints differ from the postings: \(differing)") }
        return problems
    }

    /// The posting counts of the live transactions of each payee starting with `prefix`.
    static func postingCounts(_ db: Database, payeePrefix prefix: String) throws -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT txn.payee AS payee, COUNT(posting.id) AS postings FROM txn LEFT JOIN posting ON posting.txnId = txn.id
                WHERE txn.deleted = 0 AND substr(txn.payee, 1, ?) = ? GROUP BY txn.id
                """, arguments: [prefix.count, prefix])
        for row in rows { found[row["payee"], default: []].append(row["postings"]) }
        return found
    }

    /// Every row of every table of the database at `path`, as text, sorted within each table;
    /// read on a connection that never writes (`query_only`), closed as `capital` closes its own.
    static func allRows(_ path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [String] = []
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                rows.append("table \(table)")
                rows += try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { "\($0)" }.sorted()
            }
            return rows
        }
    }

    /// `problems` of the database at `path`.
    static func problems(db path: String) throws -> [String] {
        let queue = try open(path)
        defer { try? queue.close() }
        return try queue.read(problems)
    }
}

extension CLI {
    /// Starts `executable args…` (`capital` unless told) in this CLI's environment without waiting
    /// for it. Its output goes to two files of the folder (see `spawnedResult`); the caller must
    /// `CLI.wait` for the pid, which stays the caller's until then.
    func spawn(_ args: [String], env: [String: String] = [:], executable: String = CLI.executable) throws -> pid_t {
        var environment = ProcessInfo.processInfo.environment
        environment["CAPITAL_DB"] = db
        environment["HOME"] = folder.path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg").path
        environment["NO_COLOR"] = "1"
        environment.merge(env) { _, new in new }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path("spawned-stdout"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, path("spawned-stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + args).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        if code != 0 { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
        return pid
    }

    /// Runs `executable args…` to the end: its exit status (minus the signal that ended it) and output.
    func runSpawned(_ args: [String], executable: String = CLI.executable) throws -> Result {
        let status = CLI.wait(try spawn(args, executable: executable))
        return Result(status: status, stdout: spawned("stdout"), stderr: spawned("stderr"))
    }

    /// What the last spawned command wrote.
    func spawnedOutput() -> String { "stdout: \(spawned("stdout")) stderr: \(spawned("stderr"))" }

    private func spawned(_ stream: String) -> String {
        (try? String(contentsOfFile: path("spawned-\(stream)"), encoding: .utf8)) ?? ""
    }

    /// Waits for `pid`: its exit status, or minus the signal that ended it.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : -signal
    }
}
