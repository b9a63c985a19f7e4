import ArgumentParser
import Foundation
import Testing

@testable import capital

/// `capital`'s commands run against a database of their own: inside the test process by default
/// (parse → call → render through a captured `Console`, as swift-argument-parser's
/// `AssertExecuteCommand` does), or as the real binary in a subprocess (`runProcess`) where
/// the process itself is under test: signals, crashes, exit codes, several processes at once,
/// the time zone.
///
/// Every test makes its own `CLI`: a fresh temporary folder holding its database, named by
/// `CAPITAL_DB` (so the user's real database is never touched) with `HOME` and `XDG_DATA_HOME`
/// pointing into the folder too. `NO_COLOR=1` keeps output plain.
final class CLI: Sendable {
    struct Result: Sendable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
        /// The non-empty lines of stderr but the notes an answer adds (`CLI.isAnswerNote`).
        var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: true).filter { !CLI.isAnswerNote($0) } }
    }

    /// `capital`, built next to the test bundle (`.build/<triple>/debug/`).
    static let executable: String = {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("capital").path
    }()

    /// The repository root, found from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samplePath = root.appendingPathComponent("samples/household.yaml").path

    let folder: URL
    /// The database this CLI's commands use through `CAPITAL_DB`.
    let db: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        db = folder.appendingPathComponent("capital.sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A path inside this CLI's folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The environment a command of this CLI sees: the test process's, pointed at this CLI's folder.
    private func environment(_ env: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["CAPITAL_DB"] = db
        environment["HOME"] = folder.path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg").path
        environment["NO_COLOR"] = "1"
        environment.merge(env) { _, new in new }
        return environment
    }

    /// Paths in arguments (`samples/household.yaml`) are relative to the repository root, as for
    /// the binary, which runs there.
    private static let inRoot: Void = { _ = FileManager.default.changeCurrentDirectoryPath(root.path) }()

    /// Runs `capital args…` inside the test process: the same parsing, the same command and the
    /// same rendering as the binary, with standard output, standard error and the environment
    /// captured.
    func run(_ args: [String], env: [String: String] = [:], stdin: String? = nil) -> Result {
        CLI.inRoot
        let (console, output, error) = Console.captured(environment: environment(env), input: stdin ?? "")
        let status = Console.$current.withValue(console) { Capital.execute(args, parsing: ParseMemo.shared.parse) }
        return Result(status: status, stdout: output.text, stderr: error.text)
    }

    /// Runs the real `capital` binary as a subprocess and waits for it.
    func runProcess(_ args: [String], env: [String: String] = [:], stdin: String? = nil) -> Result {
        let variables = environment(env)

        let id = UUID().uuidString
        let outPath = path("stdout-\(id)")
        let errPath = path("stderr-\(id)")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        do {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.executable)
            process.arguments = args
            process.environment = variables
            process.currentDirectoryURL = CLI.root
            let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
            let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
            defer {
                try? out.close()
                try? err.close()
            }
            process.standardOutput = out
            process.standardError = err
            if let stdin {
                let inPath = path("stdin-\(id)")
                try Data(stdin.utf8).write(to: URL(fileURLWithPath: inPath))
                process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
            } else {
                process.standardInput = FileHandle.nullDevice
            }
            try process.run()
            process.waitUntilExit()
            let stdout = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
            let stderr = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
            return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
        } catch {
            return Result(status: -1, stdout: "", stderr: "could not run \(CLI.executable): \(error)")
        }
    }

    /// Runs a command that must succeed quietly on stderr, and returns its stdout.
    @discardableResult
    func ok(_ args: [String], env: [String: String] = [:], stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let result = run(args, env: env, stdin: stdin)
        #expect(result.status == 0, "capital \(args.joined(separator: " ")) failed: \(result)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").allSatisfy(CLI.isAnswerNote),
            "capital \(args.joined(separator: " ")) wrote to stderr: \(result.stderr)",
            sourceLocation: sourceLocation)
        return result.stdout
    }

    /// The one line an answer writes on stderr when it counts open expected flows before today
    /// (the sample's unpaid fine of March makes every answer from April say it). Its text is tested
    /// by the overdue tests.
    static func isOverdueNote(_ line: Substring) -> Bool {
        line.hasPrefix("capital: note: ") && line.contains(" before ") && line.contains(" open (net ") && line.hasSuffix("or --overdue ignore")
    }

    /// The one line an answer writes on stderr when it valued balances with a rate more than a week
    /// old (the sample's rates end in March 2025, so answers seen from later say it). Its text is
    /// tested by the currency tests.
    static func isStaleRateNote(_ line: Substring) -> Bool {
        line.hasPrefix("capital: note: valued with rates older than 7 days: ") && line.hasSuffix("; import newer ones with capital rate import")
    }

    /// The notes `ok` accepts on stderr: the overdue note and the stale-rate note.
    static func isAnswerNote(_ line: Substring) -> Bool { isOverdueNote(line) || isStaleRateNote(line) }

    /// Runs a command with `--format json` and parses its output.
    func json(_ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        let text = ok(args + ["--format", "json"], sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// A JSON listing: an array of objects.
    func rows(_ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try #require(try json(args, sourceLocation: sourceLocation) as? [[String: Any]], sourceLocation: sourceLocation)
    }

    /// What must not change when a command fails: every row of every table when the file is a
    /// database SQLite reads (read without writing: every open of the store touches the file's
    /// header, so a readable ledger is compared by content), else the file's bytes (or its absence).
    /// Stricter than comparing exports (a timestamp or a version bumped counts), and a few
    /// milliseconds where running `export` twice per refused command took most of the suite's time.
    struct State: Equatable, CustomStringConvertible {
        var rows: [String]?
        var bytes: Data?
        var description: String { rows.map { "\($0.count) rows" } ?? bytes.map { "file of \($0.count) bytes" } ?? "no file" }
    }

    func state(db path: String? = nil) -> State {
        let path = path ?? db
        if FileManager.default.fileExists(atPath: path), let rows = try? LedgerChecks.allRows(path) {
            return State(rows: rows, bytes: nil)
        }
        return State(rows: nil, bytes: FileManager.default.contents(atPath: path))
    }

    /// Runs a command that must fail: non-zero exit, exactly one line on stderr mentioning every
    /// string of `mentions`, nothing on stdout, and (unless `unchanged` is false) the database as it was.
    @discardableResult
    func fails(
        _ args: [String], mentioning mentions: [String], env: [String: String] = [:], stdin: String? = nil, db path: String? = nil,
        unchanged: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result {
        let before = unchanged ? state(db: path) : nil
        let result = run(args, env: env, stdin: stdin)
        let command = "capital \(args.joined(separator: " "))"
        #expect(result.status != 0, "\(command) succeeded: \(result)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(command) should say one line on stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("capital: error: "), "\(result.stderr)", sourceLocation: sourceLocation)
        for part in mentions {
            #expect(result.stderr.contains(part), "\(command): stderr does not mention \(part): \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(result.stdout == "", "\(command) wrote to stdout: \(result.stdout)", sourceLocation: sourceLocation)
        if let before {
            #expect(state(db: path) == before, "\(command) changed the database", sourceLocation: sourceLocation)
        }
        return result
    }

    // MARK: Ledgers to start from

    /// `capital init`, plus a debit account as default.
    static func initialized(withDebit: Bool = true) throws -> CLI {
        let cli = try CLI()
        cli.ok(["init"])
        if withDebit { cli.ok(["account", "add", "VTB Debit", "--kind", "debit", "--default"]) }
        return cli
    }

    /// The sample household, imported once per test process into a template and copied per test.
    static func household() throws -> CLI {
        let cli = try CLI()
        try FileManager.default.copyItem(atPath: try template.get(), toPath: cli.db)
        return cli
    }

    private static let template: Swift.Result<String, TemplateError> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-cli-template-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        templateFolder = folder.path
        atexit { if let folder = CLI.templateFolder { try? FileManager.default.removeItem(atPath: folder) } }
        let path = folder.appendingPathComponent("household.sqlite").path
        guard let cli = try? CLI() else { return .failure(TemplateError(message: "no temporary folder")) }
        let result = cli.run(["--db", path, "import", samplePath])
        guard result.status == 0 else { return .failure(TemplateError(message: "importing the sample failed: \(result)")) }
        return .success(path)
    }()

    nonisolated(unsafe) private static var templateFolder: String?

    struct TemplateError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Reading JSON values the way the CLI writes them.
extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) -> String? { self[key] as? String }
}

/// Minor units of a plain amount (`-1234.50`, `12`) in a currency with two decimals, by integer arithmetic.
func minorUnits(_ text: String) -> Int64? {
    var digits = text
    let negative = digits.hasPrefix("-")
    if negative || digits.hasPrefix("+") { digits.removeFirst() }
    let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = Int64(parts[0]) else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
        guard parts[1].count <= 2, let value = Int64(parts[1]) else { return nil }
        fraction = parts[1].count == 1 ? value * 10 : value
    }
    let value = whole * 100 + fraction
    return negative ? -value : value
}

/// The commands the suite's command lines parsed to, by command line: a command line parses to the
/// same command every time (`validate()` reads only what was parsed), and in a debug build
/// argument-parser checks every command's declaration again on each parse (`#if DEBUG`
/// validators: a third of the suite's time before this memo). The first parse of each command
/// line is a real one; a command line that fails to parse is parsed, and fails, every time.
final class ParseMemo: @unchecked Sendable {
    static let shared = ParseMemo()
    private let lock = NSLock()
    private var parsed: [[String]: any ParsableCommand] = [:]

    func parse(_ arguments: [String]) throws -> any ParsableCommand {
        if let command = lock.withLock({ parsed[arguments] }) { return command }
        let command = try Capital.parseAsRoot(arguments)
        lock.withLock { parsed[arguments] = command }
        return command
    }
}

extension CLI {
    /// Whether hledger is installed where the tests look for it (`apt-get install hledger`).
    static let hasHledger = FileManager.default.isExecutableFile(atPath: "/usr/bin/hledger")

    /// Runs hledger with `arguments`: its exit status and standard output.
    static func hledger(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/hledger")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
