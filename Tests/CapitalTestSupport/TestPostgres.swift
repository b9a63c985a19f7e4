import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL server for the tests of `capital serve --database`: the one
/// `CAPITAL_TEST_POSTGRES=postgres://USER@HOST:PORT/DB` names, else a cluster of the tests' own,
/// started once per test process from the installed binaries (Debian's `postgresql` package:
/// `/usr/lib/postgresql/N/bin`, else `initdb` on the PATH) in a temporary folder, listening on
/// 127.0.0.1 only, run as the unprivileged `postgres` user when the tests run as root, and stopped
/// when the process exits. Tests that need it are skipped, with a message, only when no binaries
/// exist; a cluster that fails to start fails them.
public enum TestPostgres {
    /// The folder of `initdb`, `pg_ctl` and `psql`; nil when PostgreSQL is not installed.
    public static let binaries: String? = {
        let debian = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in debian.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let folder = "/usr/lib/postgresql/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: folder + "/initdb") { return folder }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where FileManager.default.isExecutableFile(atPath: folder + "/initdb") {
            return folder
        }
        return nil
    }()

    /// Whether the PostgreSQL tests run: a server is named, or binaries exist to start one.
    public static let available = ProcessInfo.processInfo.environment["CAPITAL_TEST_POSTGRES"] != nil || binaries != nil

    /// Why the PostgreSQL tests are skipped, for the test's trait.
    public static let skipped = "no PostgreSQL binaries (initdb) on this machine and no CAPITAL_TEST_POSTGRES: the PostgreSQL storage is not tested"

    /// The URL of the maintenance database (`postgres`) of the server the tests use.
    public static func server() throws -> String { try started.get() }

    private static let started: Result<String, any Error> = Result {
        if let url = ProcessInfo.processInfo.environment["CAPITAL_TEST_POSTGRES"] { return url }
        guard let binaries else { throw TestPostgresError(message: skipped) }
        return try startCluster(binaries)
    }

    /// Makes an empty database on the server; answers its URL. `drop(_:)` removes it.
    public static func newDatabase() throws -> String {
        let server = try server()
        let name = "capital_test_\(UUID().uuidString.prefix(8).lowercased())"
        try psql(server, "CREATE DATABASE \(name)")
        guard let slash = server.lastIndex(of: "/") else { throw TestPostgresError(message: "\(server): no database in the URL") }
        return server[...slash] + name
    }

    /// Drops the database `url` names, closing its connections first.
    public static func drop(_ url: String) {
        guard let server = try? server(), let name = url.split(separator: "?").first?.split(separator: "/").last else { return }
        try? psql(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs `sql` with psql against `url`; answers the rows, one line each, columns split by `|`.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> [String] {
        let psql = binaries.map { $0 + "/psql" } ?? "psql"
        return try run([psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql], as: nil)
            .split(separator: "\n").map(String.init)
    }

    // MARK: The tests' own cluster

    nonisolated(unsafe) private static var folder: String?
    nonisolated(unsafe) private static var pgctl: String?
    nonisolated(unsafe) private static var owner: String?

    private static func startCluster(_ binaries: String) throws -> String {
        var template = Array((NSTemporaryDirectory() + "capital-pg-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestPostgresError(message: "could not make a temporary folder for PostgreSQL") }
        let folder = String(cString: made)
        // initdb refuses to run as root: the cluster belongs to Debian's `postgres` user then.
        let user: String? = getuid() == 0 ? "postgres" : nil
        if let user {
            guard let entry = getpwnam(user) else {
                throw TestPostgresError(message: "running as root and there is no \(user) user to own the test cluster")
            }
            chown(folder, entry.pointee.pw_uid, entry.pointee.pw_gid)
        }
        let port = try Loopback.freePort()
        let data = folder + "/data"
        try run([binaries + "/initdb", "-D", data, "-A", "trust", "-U", "capital", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"], as: user)
        // Connections: the tests run in parallel, each server and storage with a pool of its own
        // (up to 8); PostgreSQL's default of 100 runs out, and a pool waiting for a slot then
        // outlasts a request's connect_timeout.
        let options =
            "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder) -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400"
        try run([binaries + "/pg_ctl", "-D", data, "-o", options, "-l", folder + "/server.log", "-w", "-t", "60", "start"], as: user)
        Self.folder = folder
        Self.pgctl = binaries + "/pg_ctl"
        Self.owner = user
        atexit {
            guard let folder = TestPostgres.folder, let pgctl = TestPostgres.pgctl else { return }
            try? TestPostgres.run([pgctl, "-D", folder + "/data", "-m", "immediate", "-w", "stop"], as: TestPostgres.owner)
            try? FileManager.default.removeItem(atPath: folder)
        }
        return "postgres://capital@127.0.0.1:\(port)/postgres"
    }

    /// Runs `arguments` (as `user` through runuser when given), waits, and answers its output.
    /// posix_spawn and waitpid, not Foundation's Process: `pg_ctl start` leaves a server running
    /// behind it, which would hold Process's descriptors open, and Process's wait never returned.
    @discardableResult
    static func run(_ arguments: [String], as user: String?) throws -> String {
        let command = user.map { ["/usr/sbin/runuser", "-u", $0, "--"] + arguments } ?? arguments
        let log = NSTemporaryDirectory() + "capital-pg-\(UUID().uuidString).log"
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process is inherited: the server pg_ctl leaves running would
        // otherwise hold the pipes and sockets of other tests' processes open for as long as it
        // runs, and Foundation's Process waits for those to close to see its child exit.
        #if canImport(Glibc)
            // glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc does not show.
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
                throw TestPostgresError(message: "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later)")
            }
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        #endif
        var argv = command.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        argv.append(nil)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Darwin)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, command[0], &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw TestPostgresError(message: "\(command[0]): could not start (\(String(cString: strerror(spawned))))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard exited == 0 else { throw TestPostgresError(message: "\(command.joined(separator: " ")) exited \(exited): \(output)") }
        return output
    }
}

/// Why the tests' PostgreSQL could not be used.
public struct TestPostgresError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Ports on 127.0.0.1 for servers the tests start.
public enum Loopback {
    /// A port on 127.0.0.1 that nothing listens on now: bound, then closed (the system's pick).
    public static func freePort() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw TestPostgresError(message: "could not find a free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
