import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a command reads of its surroundings and where its words go: the process's environment
/// and streams when `capital` runs, a test's when a command runs inside the test process.
///
/// Commands never call `print` or read `ProcessInfo`: they write through `Console.current`, which
/// a test replaces for the duration of one command (`Console.$current.withValue`), as
/// swift-argument-parser's `AssertExecuteCommand` and Hummingbird's `app.test(.router)` run a
/// command or a route without a process of their own.
final class Console: @unchecked Sendable {
    /// The environment variables the command sees (`CAPITAL_DB`, `HOME`, `NO_COLOR`, `COLUMNS`…).
    let environment: [String: String]
    /// Whether standard output, standard error and standard input are terminals.
    let outputIsTerminal: Bool
    let errorIsTerminal: Bool
    let inputIsTerminal: Bool
    private let output: Stream
    private let error: Stream
    private let input: Input

    private enum Stream {
        case standardOutput
        case standardError
        case buffer(Buffer)
    }

    private enum Input {
        case standardInput
        case lines(Buffer)
    }

    /// Bytes written by a command under test, behind a lock (a command may write from a worker thread).
    final class Buffer: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []

        init(_ text: String = "") { bytes = Array(text.utf8) }

        func append(_ text: String) { lock.withLock { bytes.append(contentsOf: text.utf8) } }

        func append(_ more: ArraySlice<UInt8>) { lock.withLock { bytes.append(contentsOf: more) } }

        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

        /// Takes the next line off the front (without its line break); nil when none is left.
        func takeLine() -> String? {
            lock.withLock {
                guard !bytes.isEmpty else { return nil }
                let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
                let line = String(decoding: bytes[..<end], as: UTF8.self)
                bytes.removeSubrange(..<min(bytes.endIndex, end + 1))
                return line
            }
        }
    }

    private init(environment: [String: String], terminals: (Bool, Bool, Bool), output: Stream, error: Stream, input: Input) {
        self.environment = environment
        (outputIsTerminal, errorIsTerminal, inputIsTerminal) = terminals
        self.output = output
        self.error = error
        self.input = input
    }

    /// The process's own environment and streams.
    static let process = Console(
        environment: ProcessInfo.processInfo.environment,
        terminals: (isatty(STDOUT_FILENO) == 1, isatty(STDERR_FILENO) == 1, isatty(STDIN_FILENO) == 1),
        output: .standardOutput, error: .standardError, input: .standardInput)

    /// A console whose output and errors are collected in buffers and whose input is `input`;
    /// none of its streams is a terminal.
    static func captured(environment: [String: String], input: String = "") -> (Console, output: Buffer, error: Buffer) {
        let output = Buffer()
        let error = Buffer()
        let console = Console(
            environment: environment, terminals: (false, false, false), output: .buffer(output), error: .buffer(error), input: .lines(Buffer(input)))
        return (console, output, error)
    }

    /// The console of the command running now.
    @TaskLocal static var current: Console = .process

    /// Writes `text` to standard output as it is.
    func write(_ text: String) {
        switch output {
        case .standardOutput: Swift.print(text, terminator: "")
        case .standardError: writeError(text)
        case .buffer(let buffer): buffer.append(text)
        }
    }

    /// Writes UTF-8 `bytes` to standard output as they are.
    func write(bytes: ArraySlice<UInt8>) {
        if case .buffer(let buffer) = output { return buffer.append(bytes) }
        write(String(decoding: bytes, as: UTF8.self))
    }

    /// Writes one line to standard output.
    func line(_ text: String = "") { write(text + "\n") }

    /// Writes `text` to standard error as it is.
    func writeError(_ text: String) {
        switch error {
        case .buffer(let buffer): buffer.append(text)
        default:
            var bytes = Array(text.utf8)
            _ = bytes.withUnsafeMutableBytes { raw in
                #if canImport(Glibc)
                    Glibc.write(STDERR_FILENO, raw.baseAddress, raw.count)
                #else
                    Darwin.write(STDERR_FILENO, raw.baseAddress, raw.count)
                #endif
            }
        }
    }

    /// The next line of standard input, or nil at its end.
    func readLine() -> String? {
        switch input {
        case .standardInput: return Swift.readLine()
        case .lines(let buffer): return buffer.takeLine()
        }
    }

    /// Whether output may be coloured: a terminal, no `NO_COLOR` (set and not empty, as
    /// no-color.org says: an empty one keeps colour), and a `TERM` other than `dumb`.
    var color: Bool { outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb" }

    /// The terminal's width in columns: the window size of stdout (`TIOCGWINSZ`) when it is a
    /// terminal, else `$COLUMNS`, else 80.
    var width: Int {
        if case .standardOutput = output {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }
}
