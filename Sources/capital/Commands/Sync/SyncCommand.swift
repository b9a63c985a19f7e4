import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

extension Capital {
    struct SyncCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Share this ledger between devices through a capital server; with no subcommand, sync now.",
            discussion: CommandConfiguration.discussion(
                """
                Every other command works offline as before; `capital sync` pushes this device's changes and pulls \
                the others'. An unreachable server exits 3 with the changes kept pending. See docs/sync.md.
                """,
                [
                    "capital sync login http://127.0.0.1:8080 --user anna", "capital sync create", "capital sync",
                    "capital --db phone.sqlite sync join LEDGER",
                ]),
            subcommands: [Now.self, Login.self, Create.self, Join.self, Status.self, Share.self, Conflicts.self, Logout.self, ResetPassword.self],
            defaultSubcommand: Now.self)

        /// The client over HTTP on the command's database.
        static func client(_ store: Store) -> SyncClient { SyncClient(store: store, transport: HTTPTransport()) }

        /// Runs `body`, turning the client's errors into the CLI's (exit 3 when the server was not reached).
        static func calling<T>(_ body: () throws -> T) throws -> T {
            do { return try body() } catch let error as SyncClientError { throw CLIError(words(error), exitCode: error.exitCode) }
        }

        /// The client's error in the command line's words: what to type next.
        static func words(_ error: SyncClientError) -> String {
            switch error {
            case .signedOut(let why, let server, let user, let pending):
                "\(why): sign in again (capital sync login \(server) --user \(user))"
                    + (pending > 0 ? "; \(pending) change\(pending == 1 ? " stays" : "s stay") pending" : "")
            case .notSignedIn: "not signed in to a sync server: capital sync login URL --user NAME"
            case .notShared:
                "this ledger is not shared: capital sync create shares it, capital sync join LEDGER starts a new database from a shared one"
            case .notLinked: "this ledger is not linked to a server's ledger: capital sync create"
            case .notEmpty(let path): "--db \(path): holds a ledger already; join into a new database (capital --db NEW.sqlite sync join LEDGER)"
            default: error.description
            }
        }

        /// `pushed 3 changes, pulled 2 …` in words.
        static func words(_ outcome: SyncOutcome) -> String {
            func count(_ n: Int, _ one: String) -> String { "\(n) \(one)\(n == 1 ? "" : "s")" }
            var parts = ["sent \(count(outcome.pushed, "change set"))", "received \(count(outcome.pulled, "change set"))"]
            if outcome.joined > 0 { parts.insert("started from the server's snapshot (\(count(outcome.joined, "value")))", at: 0) }
            if outcome.conflicts > 0 { parts.append("\(count(outcome.conflicts, "conflict")) (capital sync conflicts)") }
            if outcome.refetched { parts.append("re-fetched the server's snapshot (this device's ledger differed from it)") }
            if outcome.renewed { parts.append("this database was a copy of another device's: it is now a device of its own") }
            return parts.joined(separator: ", ")
        }
    }
}

extension Capital.SyncCommand {
    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(
            "now", "Push this device's changes, then pull the others' (what `capital sync` does).", example: "capital sync")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.store(writing: true)
            let outcome = try calling { try client(store).sync() }
            if outcome.agrees == false {
                Console.current.writeError(
                    "capital: warning: this device's ledger still differs from the server's after a fresh snapshot: capital check\n")
            }
            try output.said("Synced: \(words(outcome)); the server's log is at \(outcome.head).") { Status.report(store) }
        }
    }

    struct Login: ParsableCommand {
        static let configuration = CommandConfiguration(
            "login", "Sign in to a capital server (the tokens stay in this database, readable by you only).",
            example: "capital sync login http://127.0.0.1:8080 --user anna",
            "capital sync login https://capital.example.org --user anna --password-stdin")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The server, http://HOST:PORT or https://HOST.") var url: String
        @Option(help: "Your user name on the server.") var user: String
        @Flag(help: "Read the password from standard input (one line) instead of asking.") var passwordStdin = false

        func run() throws {
            let output = try global.writeOutput()
            // A bad server is said before a password is asked for.
            _ = try calling { try SyncClient.normalized(url) }
            let password = try readPassword(stdin: passwordStdin)
            let store = try global.store(writing: true, creating: true)
            let login = try calling { try client(store).login(server: url, user: user, password: password) }
            try output.said("Signed in to \(login.server) as \(login.user).") { Status.report(store) }
        }

        private func readPassword(stdin: Bool) throws -> String {
            if stdin {
                guard let line = Console.current.readLine() else { throw CLIError.invalid("--password-stdin", "", "standard input is empty") }
                return line
            }
            guard isatty(STDIN_FILENO) == 1, let line = getpass("Password for \(user): ") else {
                throw CLIError("password: no terminal to ask on; pass --password-stdin with the password on standard input", exitCode: 64)
            }
            return String(cString: line)
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            "create", "Share this ledger: upload it to the server as a new shared ledger, and print its id for other devices.",
            example: "capital sync create", "capital sync create --name \"Home\"")

        @OptionGroup var global: GlobalOptions
        @Option(help: "The ledger's name on the server (default: the database's file name).") var name: String?

        func run() throws {
            if let name, let problem = TextLimits.problem(in: name, limit: TextLimits.name) {
                let quoted = (name.count > 40 ? String(name.prefix(40)) + "…" : name).singleLine
                throw CLIError("--name '\(quoted)': a name cannot have \(problem)", exitCode: 64)
            }
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let shown = name ?? URL(fileURLWithPath: store.location).deletingPathExtension().lastPathComponent
            let (ledger, outcome) = try calling { try client(store).create(name: shown) }
            try output.said(
                "Shared this ledger as \"\(ledger.name)\" (\(ledger.id)); sent \(outcome.pushed) change set\(outcome.pushed == 1 ? "" : "s"). On another device: capital --db NEW.sqlite sync join \(ledger.id)"
            ) { Status.report(store) }
        }
    }

    struct Join: ParsableCommand {
        static let configuration = CommandConfiguration(
            "join", "Start this (new) database from a shared ledger on the server.",
            example: "capital --db phone.sqlite sync join 6f1c2a34-5b7d-4e8f-9a0b-1c2d3e4f5a6b")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The shared ledger's id (capital sync create prints it; capital sync status shows it).") var ledger: String

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.store(writing: true, creating: true)
            let outcome = try calling { try client(store).join(ledger: ledger) }
            try output.said("Joined ledger \(ledger): \(words(outcome)).") { Status.report(store) }
            // The default account is each device's own: answers that use it need it set here too.
            if try store.defaultAccount() == nil {
                output.note("This device has no default account yet (each device keeps its own): capital account edit ACCOUNT --default")
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            "status", "The server, the shared ledger, the last sync, pending changes and open conflicts (no network).",
            example: "capital sync status", "capital sync status --format json")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            // One record, as every `show` prints one: its labels aligned in a table.
            try global.print(Self.report(try global.store(writing: false)))
        }

        static func fields(_ store: Store) throws -> [(Column, Cell)] {
            let login = try store.syncLogin()
            let link = try store.syncLink()
            return [
                (Column("server", "Server"), (link?.server ?? login?.server).map(Cell.text) ?? .absent("(none)")),
                (Column("user", "Signed in as"), login.map { .text($0.user) } ?? .absent("(signed out)")),
                (
                    Column("ledger", "Ledger"),
                    link?.ledger.map(Cell.text) ?? .absent(link == nil ? "(not shared)" : "(not uploaded: capital sync create)")
                ),
                (Column("device", "Device"), link.map { .text($0.device) } ?? .absent("(none)")),
                (Column("lastSync", "Last sync"), link?.syncedAt.map { .text($0 + " UTC") } ?? .absent("(never)")),
                (Column("pending", "Pending change sets", numeric: true), .int(link?.pending ?? 0)),
                (Column("conflicts", "Open conflicts", numeric: true), .int(link?.conflicts ?? 0)),
                (Column("cursor", "Server sequence applied", numeric: true), .int(Int(link?.cursor ?? 0))),
            ]
        }

        static func report(_ store: Store) -> Report { Report.record("sync", (try? fields(store)) ?? []) }
    }

    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            "share", "Give a user of the server a role in this shared ledger (owners only).",
            example: "capital sync share boris --role member", "capital sync share grandma --role viewer")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The user's name on the server.") var user: String
        @Option(help: "member (reads and writes), viewer (reads) or owner (also shares).") var role = "member"

        func validate() throws {
            guard ["owner", "member", "viewer"].contains(role) else { throw CLIError.invalid("--role", role, "one of member, viewer, owner") }
        }

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.store(writing: false)
            let member = try calling { try client(store).share(user: user, role: role) }
            try output.said("\(member.user) is now \(member.role) of this ledger.") {
                Report.record("member", [(Column("user", "User"), .text(member.user)), (Column("role", "Role"), .text(member.role))])
            }
        }
    }

    struct ResetPassword: ParsableCommand {
        static let configuration = CommandConfiguration(
            "reset-password", "Choose a new password with a one-time token from a server administrator (no sign-in needed).",
            example: "capital sync reset-password https://capital.example.org --user anna --token TOKEN",
            "capital sync reset-password http://127.0.0.1:8080 --user anna --token TOKEN --password-stdin")

        @Argument(help: "The server, http://HOST:PORT or https://HOST.") var url: String
        @Option(help: "Your user name on the server.") var user: String
        @Option(help: "The reset token the administrator gave you (valid 24 hours, once).") var token: String
        @Flag(help: "Read the new password from standard input (one line) instead of asking twice.") var passwordStdin = false

        func run() throws {
            _ = try calling { try SyncClient.normalized(url) }
            let password: String
            if passwordStdin {
                guard let line = Console.current.readLine() else { throw CLIError.invalid("--password-stdin", "", "standard input is empty") }
                password = line
            } else {
                guard isatty(STDIN_FILENO) == 1, let first = getpass("New password for \(user): ").map({ String(cString: $0) }),
                    let again = getpass("Again: ").map({ String(cString: $0) })
                else {
                    throw CLIError("password: no terminal to ask on; pass --password-stdin with the password on standard input", exitCode: 64)
                }
                guard first == again else { throw CLIError("password: the two entries differ; nothing changed", exitCode: 64) }
                password = first
            }
            let client = SyncClient(store: try Store.inMemory(), transport: HTTPTransport())
            try calling { try client.resetPassword(server: url, user: user, token: token, password: password) }
            Console.current.line(
                "Changed \(user)'s password; every device of theirs is signed out: capital sync login \(try SyncClient.normalized(url)) --user \(user)"
            )
        }
    }

    struct Logout: ParsableCommand {
        static let configuration = CommandConfiguration(
            "logout", "Sign out: revoke this device's tokens on the server and forget them here.", example: "capital sync logout")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.store(writing: true)
            if try calling({ try client(store).logout() }) {
                Console.current.line("Signed out; pending changes stay here until the next sign-in and sync.")
            } else {
                Console.current.line(
                    "Signed out here; the server did not answer, so this device's tokens stay valid there until they expire (7 days at most).")
            }
        }
    }
}
