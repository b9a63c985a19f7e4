import CapitalCore
import Foundation
import GRDB

/// The ledger's persistent home: SQLite through GRDB, in WAL mode, with foreign keys and a busy
/// timeout. Every method is one transaction: it changes everything it should or nothing.
public struct Store: Sendable {
    private let writer: any DatabaseWriter
    /// The database path, or the ledger file's path for a read-only in-memory store.
    public let location: String
    /// True for a store loaded from a ledger file with `-f`: writes are refused.
    public let isReadOnly: Bool

    private init(writer: any DatabaseWriter, location: String, isReadOnly: Bool) {
        self.writer = writer
        self.location = location
        self.isReadOnly = isReadOnly
    }

    /// Opens (creating if needed, with mode 0600 and missing folders) the database at `path`.
    ///
    /// A database whose schema is newer than this program, or a SQLite file of another program,
    /// is refused before anything is written to it.
    public static func open(path: String) throws(StoreError) -> Store {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if !manager.fileExists(atPath: folder, isDirectory: &isFolder) {
            try createFolders(folder, for: path)
        } else if !isFolder.boolValue {
            throw .cannotCreateFolder(path: path, reason: "\(folder) is a file, not a folder")
        }
        if manager.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { throw .cannotOpen(path: path, reason: "it is a folder; give the path of a database file inside it") }
            try checkExisting(path: path)
        } else {
            let fd = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if fd < 0 { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
            close(fd)
        }
        do {
            let queue = try DatabaseQueue(path: path, configuration: Store.configuration())
            // WAL is a persistent property of the file: set once, a no-op afterwards, so opening
            // a database to read it writes nothing.
            try queue.writeWithoutTransaction { db in
                if try String.fetchOne(db.cachedStatement(sql: "PRAGMA journal_mode")) != "wal" {
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                }
            }
            try Migrations.migrator.migrate(queue)
            return Store(writer: queue, location: path, isReadOnly: false)
        } catch let error as DatabaseError {
            if Store.isDamage(error) { throw .damaged(path: path, context: "opening it", reason: Store.describe(error)) }
            throw .cannotOpen(path: path, reason: Store.describe(error))
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// An empty in-memory store, for ledger files opened with `-f` and for tests.
    public static func inMemory(location: String = ":memory:", readOnly: Bool = false) throws(StoreError) -> Store {
        do {
            let queue = try DatabaseQueue(configuration: Store.configuration())
            try Migrations.migrator.migrate(queue)
            return Store(writer: queue, location: location, isReadOnly: readOnly)
        } catch let error as DatabaseError {
            throw .database(context: "creating an in-memory store", error)
        } catch {
            throw .cannotOpen(path: location, reason: "\(error)")
        }
    }

    private static func configuration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        config.label = "capital"
        return config
    }

    /// Looks at an existing file without writing to it: it must be empty, or a capital database this program knows.
    private static func checkExisting(path: String) throws(StoreError) {
        try inspect(path: path) { _ in }
    }

    /// Runs `body` on a connection to the existing file at `path` that never writes, after making
    /// sure the file is empty or a capital database whose every schema version this program knows.
    ///
    /// The connection is opened read-write but with `PRAGMA query_only`: a read-only connection to
    /// a WAL database leaves `-wal` and `-shm` files behind when it closes, where a read-write one
    /// removes them (when it is the last connection), so looking at a file leaves it as it was.
    /// - Throws: `.notCapitalDatabase`, `.newerSchema`, `.cannotOpen` when the file is not a
    ///   SQLite database or is damaged past reading its schema, or what `body` throws.
    static func inspect<T>(path: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        let queue = try inspectionQueue(path: path)
        do {
            // One read transaction, rolled back rather than committed: after SQLite reports a damaged
            // page, COMMIT reports it again, and a check must get to the end of its report.
            let result = try queue.inDatabase { db in
                try db.execute(sql: "BEGIN DEFERRED TRANSACTION")
                defer { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                return try body(db)
            }
            try queue.close()
            return result
        } catch {
            try? queue.close()
            throw inspectionError(error, path: path)
        }
    }

    /// A connection to the existing file at `path` that never writes (see `inspect`), once the
    /// file is known to be empty or a capital database of a schema this program knows.
    static func inspectionQueue(path: String) throws(StoreError) -> DatabaseQueue {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.label = "capital-inspect"
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            do {
                try queue.read { db in try requireKnownSchema(db, path: path) }
            } catch {
                try? queue.close()
                throw error
            }
            return queue
        } catch {
            throw inspectionError(error, path: path)
        }
    }

    private static func inspectionError(_ error: any Error, path: String) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as DatabaseError where isDamage(error):
            return .cannotOpen(path: path, reason: "the file is not a SQLite database or is damaged (\(describe(error)))")
        case let error as DatabaseError:
            return .cannotOpen(path: path, reason: describe(error))
        default:
            return .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Refuses a file that has tables but no capital schema, and a schema newer than this program.
    private static func requireKnownSchema(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        if tables.isEmpty { return }
        guard tables.contains("grdb_migrations") else { throw StoreError.notCapitalDatabase(path: path) }
        let known = Set(Migrations.migrator.migrations)
        let applied = try String.fetchAll(db.cachedStatement(sql: "SELECT identifier FROM grdb_migrations"))
        let unknown = applied.filter { !known.contains($0) }
        if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown) }
    }

    /// Whether SQLite says the file is damaged or not a database at all.
    static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    static func describe(_ error: DatabaseError) -> String {
        error.message ?? "\(error.resultCode)"
    }

    /// Creates `folder` and its missing parents with mode 0700, naming the one that fails.
    private static func createFolders(_ folder: String, for path: String) throws(StoreError) {
        var current = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            current += "/" + component
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: current, isDirectory: &isFolder) {
                if !isFolder.boolValue { throw .cannotCreateFolder(path: path, reason: "\(current) is a file, not a folder") }
                continue
            }
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw .cannotCreateFolder(path: path, reason: "\(current): \(String(cString: strerror(errno)))")
            }
        }
    }

    // MARK: Transactions

    /// Runs `body` in one IMMEDIATE transaction (so a second writer waits on the busy timeout
    /// instead of failing), mapping errors to `StoreError`.
    func write<T>(_ context: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        if isReadOnly { throw .readOnly(path: location) }
        do {
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as StoreError {
            throw error.at(location)
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_FULL { throw .diskFull(context: context) }
            if Store.isDamage(error) { throw .damaged(path: location, context: context, reason: Store.describe(error)) }
            throw .database(context: context, error)
        } catch {
            throw .conflict("--db \(location): \(context): \(error)")
        }
    }

    /// Runs `body` in one read transaction.
    func read<T>(_ context: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writer.read(body)
        } catch let error as StoreError {
            throw error.at(location)
        } catch let error as DatabaseError {
            if Store.isDamage(error) { throw .damaged(path: location, context: context, reason: Store.describe(error)) }
            throw .database(context: context, error)
        } catch {
            // A value the program cannot take in (a currency code that is not one, a rule that does
            // not parse): the file was changed behind capital's back, or damaged.
            if isReadOnly { throw .conflict("\(location): \(context): \(error)") }
            throw .conflict("--db \(location): \(context): \(error); run `capital check` to see what else is wrong")
        }
    }

    /// Writes to a store loaded from a ledger file: used only to fill it.
    func load<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writer.write(body)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw .database(context: "loading \(location)", error)
        } catch {
            throw .conflict("\(location): \(error)")
        }
    }

    static func newID() -> String { UUID().uuidString.lowercased() }
}
