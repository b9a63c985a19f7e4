import ArgumentParser
import CapitalServer
import CapitalStore
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `capital serve`: the sync server, its own executable (`capital serve …` runs it) so that the
/// CLI never loads the server's libraries.
@main
struct CapitalServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capital serve",
        abstract: "Share ledgers between devices: the sync server, and its users.",
        discussion: """
            Examples:
              capital serve --data /srv/capital                      serve on 127.0.0.1:8080
              capital serve --data /srv/capital --host 0.0.0.0 --port 8443
              capital serve user add anna --data /srv/capital        asks for a password
              capital serve user list --data /srv/capital
              capital serve migrate --database postgres://capital@127.0.0.1/capital
              capital serve --database postgres://capital@127.0.0.1/capital
              CAPITAL_DATABASE=postgres://capital:PASSWORD@127.0.0.1/capital capital serve

            GET /health and GET /metrics (Prometheus) serve monitoring; docs/server.md shows TLS with nginx, a systemd unit, backups and the restore drill.
            """,
        version: "0.1.0",
        subcommands: [Run.self, Migrate.self, UserCommand.self, Audit.self],
        defaultSubcommand: Run.self
    )

    static func main() async {
        // Past a file-size limit a write fails with EFBIG (SQLite rolls the push back, the client
        // hears 507) rather than SIGXFSZ ending the server.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as ServeError {
            FileHandle.standardError.write(Data("capital serve: error: \(error.message)\n".utf8))
            Foundation.exit(error.code)
        } catch {
            exit(withError: error)
        }
    }
}

extension Logger {
    /// A logger that passes only errors on (to standard error).
    static var quiet: Logger {
        var logger = Logger(label: "capital-serve.postgres") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .critical
        return logger
    }
}

/// A one-line error and its exit status.
struct ServeError: Error {
    let message: String
    var code: Int32 = 1
}

/// Where a server keeps its data: `--data DIR` (SQLite, `DIR/capital-server.sqlite`) or
/// `--database postgres://USER@HOST/DB` (PostgreSQL), one of the two.
struct DataOption: ParsableArguments {
    @Option(name: .long, help: "The server's data folder, for SQLite storage (made when missing).")
    var data: String?

    @Option(
        name: .customLong("database"),
        help: "A PostgreSQL database instead: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…&pool=N] (or $CAPITAL_DATABASE).")
    var databaseOption: String?

    /// `--database`, else `CAPITAL_DATABASE` when `--data` is not given either: a URL with a
    /// password stays out of the command line (which every local user can read in /proc).
    var database: String? { databaseOption ?? (data == nil ? ProcessInfo.processInfo.environment["CAPITAL_DATABASE"] : nil) }

    /// What named the database, for messages.
    var databaseSource: String { databaseOption == nil ? "CAPITAL_DATABASE" : "--database" }

    /// Hidden: scrypt's log2 N for new hashes (tests use a small one; the default is 17).
    @Option(name: .customLong("scrypt-log-n"), help: .hidden)
    var scryptLogN = Passwords.standardLogN

    /// Exactly one of the two (checked when the storage opens: a one-line error, exit 64).
    func checkOne() throws {
        switch (data, database) {
        case (nil, nil): throw ServeError(message: "where is the server's data? --data DIR (SQLite) or --database postgres://USER@HOST/DB", code: 64)
        case (.some, .some): throw ServeError(message: "--data and \(databaseSource): one or the other, not both", code: 64)
        default: break
        }
    }

    /// Where the data is, for messages.
    var place: String { database.map(PostgresStorage.redacted) ?? data ?? "" }

    /// Runs `body` with the storage open: SQLite's file, or PostgreSQL's pool running for as long
    /// as `body` does, its schema checked first (`migrating`: not checked, `body` migrates it).
    /// The pool's own messages (a connection lost, made again) go to `logger`: the server's log;
    /// a one-off command keeps quiet but for errors.
    func withStorage<T: Sendable>(
        migrating: Bool = false, logger: Logger = Logger.quiet, _ body: @Sendable (any ServerStorage) async throws -> T
    ) async throws -> T {
        try checkOne()
        guard let database else { return try await body(try openSQLite()) }
        let storage: PostgresStorage
        do { storage = try PostgresStorage(url: database, logger: logger) } catch {
            throw ServeError(message: "\(databaseSource) \(error)", code: 64)
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await storage.client.run() }
            defer { group.cancelAll() }
            if !migrating {
                let state: PostgresStorage.SchemaState
                do { state = try await storage.checkSchema(within: .seconds(15)) } catch {
                    throw ServeError(message: "\(databaseSource) \(place): \(PostgresStorage.describe(error))")
                }
                switch state {
                case .current: break
                case .behind(let pending):
                    throw ServeError(
                        message:
                            "\(databaseSource) \(place): the schema lacks \(pending.joined(separator: ", ")): run capital serve migrate --database URL first"
                    )
                case .ahead(let unknown):
                    throw ServeError(
                        message:
                            "\(databaseSource) \(place): the schema has \(unknown.joined(separator: ", ")), made by a newer capital: upgrade capital-server"
                    )
                }
            }
            return try await body(storage)
        }
    }

    private func openSQLite() throws -> LedgerLog {
        let data = data ?? ""
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: data, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw ServeError(message: "--data \(data): a file, not a folder") }
        } else {
            do {
                try FileManager.default.createDirectory(
                    atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServeError(message: "--data \(data): could not make the folder (\(error.localizedDescription))")
            }
        }
        let path = (data as NSString).appendingPathComponent("capital-server.sqlite")
        do {
            let log = try LedgerLog(path: path)
            chmod(path, 0o600)
            return log
        } catch {
            throw ServeError(message: "--data \(data): could not open \(path): \(error)")
        }
    }
}

extension CapitalServe {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Serve (the default).", shouldDisplay: false)

        @OptionGroup var data: DataOption
        @Option(help: "The address to listen on.") var host = "127.0.0.1"
        @Option(help: "The port to listen on (0: any free one, printed).") var port = 8080
        @Flag(help: "Behind a reverse proxy: a client's address (audit log) is the last of X-Forwarded-For.") var behindProxy = false
        @Option(help: "Seconds a connection may stay idle before the server closes it.") var idleTimeout = 30

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port \(port): a port is 0 to 65535") }
            guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout \(idleTimeout): seconds from 1 to 3600") }
        }

        func run() async throws {
            LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
            let logger = {
                var logger = Logger(label: "capital-serve")
                logger.logLevel = ProcessInfo.processInfo.environment["CAPITAL_SERVE_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .info
                return logger
            }()
            let (host, port, logN, place, behindProxy, idle) = (host, port, data.scryptLogN, data.place, behindProxy, idleTimeout)
            // postgres-nio's trace lines carry the sign-in it sends: its pool logs at info or above.
            var poolLogger = logger
            poolLogger.logLevel = max(logger.logLevel, .info)
            try await data.withStorage(logger: poolLogger) { storage in
                let server = SyncServer(storage: storage, logN: logN, logger: logger, behindProxy: behindProxy, idleTimeout: .seconds(idle))
                do {
                    try await server.run(host: host, port: port) { port in
                        FileHandle.standardOutput.write(Data("capital serve: listening on http://\(host):\(port) (data in \(place))\n".utf8))
                    }
                } catch let error as SyncServer.ListenError {
                    throw ServeError(message: "--port \(port): \(error.message)")
                }
            }
        }
    }

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring a PostgreSQL database's schema up to date (SQLite storage migrates itself).",
            discussion: "Example: capital serve migrate --database postgres://capital@127.0.0.1/capital")

        @OptionGroup var data: DataOption

        func run() async throws {
            try data.checkOne()
            guard data.database != nil else {
                throw ServeError(
                    message: "--data \(data.data ?? ""): SQLite storage brings its schema up to date when opened; migrate is for --database", code: 64
                )
            }
            let place = data.place
            let applied = try await data.withStorage(migrating: true) { storage in
                do { return try await (storage as! PostgresStorage).migrate(within: .seconds(15)) } catch {
                    throw ServeError(message: "\(data.databaseSource) \(place): \(PostgresStorage.describe(error))")
                }
            }
            print(applied.isEmpty ? "The schema is up to date." : "Applied \(applied.joined(separator: ", ")).")
        }
    }

    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The audit log: sign-ins and failures, sign-outs, ledgers, roles, and changes to users.",
            discussion: """
                Examples:
                  capital serve audit --data /srv/capital
                  capital serve audit --data /srv/capital --user anna --since 2026-11-01 --limit 200
                  capital serve audit --data /srv/capital --format json
                """)

        @OptionGroup var data: DataOption
        @Option(help: "Only events where this user acted or was acted on.") var user: String?
        @Option(help: ArgumentHelp("Only events on or after this day (UTC).", valueName: "YYYY-MM-DD")) var since: String?
        @Option(help: "At most this many events, the latest (default 50).") var limit = 50
        @Option(help: "table or json.") var format = "table"

        func run() async throws {
            guard limit >= 1 else { throw ServeError(message: "--limit \(limit): a number of events, at least 1", code: 64) }
            guard ["table", "json"].contains(format) else { throw ServeError(message: "--format \(format): table or json", code: 64) }
            var from: Int64 = 0
            if let since {
                let parser = ISO8601DateFormatter()
                parser.formatOptions = [.withFullDate]
                guard since.count == 10, let day = parser.date(from: since), parser.string(from: day) == since else {
                    throw ServeError(message: "--since \(since): a day as YYYY-MM-DD", code: 64)
                }
                from = Int64(day.timeIntervalSince1970 * 1000)
            }
            let (user, limit, start) = (user, limit, from)
            // Paged from the start, the last `limit` kept: the log is read once, in order.
            let events = try await data.withStorage { storage in
                var kept: [AuditEvent] = []
                var after: Int64 = 0
                while true {
                    let page = try await storage.audit(after: after, user: user, limit: 1000)
                    kept += page.filter { $0.at >= start }
                    if kept.count > limit { kept.removeFirst(kept.count - limit) }
                    guard let last = page.last, page.count == 1000 else { break }
                    after = last.id
                }
                return kept
            }
            if format == "json" {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(events), as: UTF8.self))
                return
            }
            if events.isEmpty { print("No events\(user.map { " for \($0)" } ?? "")\(since.map { " since \($0)" } ?? "").") }
            let time = ISO8601DateFormatter()
            for event in events {
                let when = time.string(from: Date(timeIntervalSince1970: Double(event.at) / 1000))
                let fields = [when, event.actor, event.action, event.subject, event.ledger, event.address, event.detail].map { $0.isEmpty ? "-" : $0 }
                print(fields.joined(separator: "\t"))
            }
        }
    }

    struct UserCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "user", abstract: "The people who may sign in (run on the server's machine).",
            subcommands: [Add.self, List.self, Disable.self, Enable.self, Passwd.self, Admin.self])
    }
}

/// A user's name: 1 to 64 letters, digits, `.`, `_`, `-` or `@`.
func checkedName(_ name: String) throws -> String {
    guard (1...64).contains(name.count), name.allSatisfy({ $0.isLetter || $0.isNumber || "._-@".contains($0) }) else {
        throw ServeError(message: "user \"\(name)\": a user name is 1 to 64 letters, digits, '.', '_', '-' or '@'")
    }
    return name
}

/// The password: a line of standard input with `--password-stdin`, else asked for twice without echo.
func readPassword(stdin: Bool) throws -> String {
    if stdin {
        guard let line = readLine(strippingNewline: true) else { throw ServeError(message: "--password-stdin: standard input is empty") }
        return line
    }
    guard isatty(STDIN_FILENO) == 1 else {
        throw ServeError(message: "password: no terminal to ask on; pass --password-stdin and the password on standard input")
    }
    let first = hiddenLine("Password: ")
    let second = hiddenLine("Again: ")
    guard first == second else { throw ServeError(message: "password: the two entries differ; nothing changed") }
    return first
}

private func hiddenLine(_ prompt: String) -> String {
    FileHandle.standardError.write(Data(prompt.utf8))
    var saved = termios()
    tcgetattr(STDIN_FILENO, &saved)
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
    defer {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        FileHandle.standardError.write(Data("\n".utf8))
    }
    return readLine(strippingNewline: true) ?? ""
}

/// The password checked against the rule and hashed.
func hashedPassword(stdin: Bool, logN: Int) throws -> String {
    let password = try readPassword(stdin: stdin)
    if let weakness = Passwords.weakness(password) { throw ServeError(message: "password: \(weakness); nothing changed") }
    return try Passwords.hash(password, logN: logN)
}

extension CapitalServe.UserCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user: capital serve user add anna --data DIR [--password-stdin].")
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var data: DataOption
        @Flag(help: "Read the password from standard input (one line).") var passwordStdin = false
        @Flag(help: "Make the user a server administrator (the /v1/admin routes).") var admin = false

        func run() async throws {
            let name = try checkedName(name)
            let (stdin, logN, admin) = (passwordStdin, data.scryptLogN, admin)
            try await data.withStorage { storage in
                if try await storage.passwordHash(of: name) != nil { throw ServeError(message: "user \"\(name)\": exists already") }
                let hash = try hashedPassword(stdin: stdin, logN: logN)
                do { try await storage.addUser(name, hash: hash, now: SyncServer.wallClock()) } catch let error as PeopleError {
                    throw ServeError(message: "user \"\(name)\": \(error)")
                }
                try await operatorDid(.userAdded, to: name, in: storage)
                if admin {
                    try await storage.setAdmin(true, user: name)
                    try await operatorDid(.adminGranted, to: name, in: storage)
                }
            }
            print("Added user \(name)\(admin ? ", a server administrator" : "").")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users.")
        @OptionGroup var data: DataOption

        func run() async throws {
            let users = try await data.withStorage { try await $0.users() }
            if users.isEmpty {
                print("No users yet: capital serve user add NAME \(data.database == nil ? "--data" : "--database") \(data.place)")
            }
            for user in users {
                print("\(user.name)\t\(user.disabled ? "disabled" : "active")\tsince \(user.createdAt)\(user.admin ? "\tadmin" : "")")
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop a user signing in; signs every device of theirs out.")
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var data: DataOption

        func run() async throws {
            try await operatorChanges(.userDisabled, to: name, in: data) { try await $0.setDisabled(true, user: $1) }
            print("Disabled \(name): every device of theirs is signed out.")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let a disabled user sign in again.")
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var data: DataOption

        func run() async throws {
            try await operatorChanges(.userEnabled, to: name, in: data) { try await $0.setDisabled(false, user: $1) }
            print("Enabled \(name).")
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a user's password; signs every device of theirs out.")
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var data: DataOption
        @Flag(help: "Read the password from standard input (one line).") var passwordStdin = false

        func run() async throws {
            let (name, stdin, logN) = (name, passwordStdin, data.scryptLogN)
            try await data.withStorage { storage in
                guard try await storage.passwordHash(of: name) != nil else {
                    throw ServeError(message: "user \"\(name)\": no such user on this server")
                }
                let hash = try hashedPassword(stdin: stdin, logN: logN)
                try await storage.setPasswordHash(hash, of: name)
                try await storage.revokeAll(of: name)
                try await operatorDid(.passwordSet, to: name, in: storage)
            }
            print("Changed \(name)'s password: every device of theirs is signed out.")
        }
    }

    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a user a server administrator, or no longer one (--revoke).",
            discussion: "Administrators list, disable and enable users, issue password-reset tokens and read the audit log over HTTP (/v1/admin).")
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var data: DataOption
        @Flag(help: "Take the role away instead.") var revoke = false

        func run() async throws {
            let granted = !revoke
            try await operatorChanges(granted ? .adminGranted : .adminRevoked, to: name, in: data) { try await $0.setAdmin(granted, user: $1) }
            print(revoke ? "\(name) is no longer a server administrator." : "\(name) is a server administrator.")
        }
    }
}

/// Makes the operator's `change` to `user` (disable, enable, the administrator's role) and records
/// it in the audit log as `action`; a `PeopleError` (no user of that name) becomes
/// the command's one-line error.
func operatorChanges(
    _ action: AuditEvent.Action, to user: String, in data: DataOption,
    _ change: @escaping @Sendable (any ServerStorage, String) async throws -> Void
) async throws {
    do {
        try await data.withStorage { storage in
            try await change(storage, user)
            try await operatorDid(action, to: user, in: storage)
        }
    } catch let error as PeopleError {
        throw ServeError(message: "\(error)")
    }
}

/// Records in the audit log what the operator did on the server's machine.
func operatorDid(_ action: AuditEvent.Action, to user: String, in storage: any ServerStorage) async throws {
    try await storage.record(AuditEvent(at: SyncServer.wallClock(), actor: "operator", action: action, subject: user, address: "local"))
}
