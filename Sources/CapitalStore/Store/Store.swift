import CapitalCore
import Foundation
import GRDB
import GRDBSQLite

/// The ledger's persistent home: SQLite through GRDB, in WAL mode, with foreign keys and a busy
/// timeout. Every method is one transaction: it changes everything it should or nothing.
public struct Store: Sendable {
    private let backing: Backing
    /// The database path, or the ledger file's path for a read-only in-memory store.
    public let location: String
    /// True for a store loaded from a ledger file with `-f`: writes are refused.
    public let isReadOnly: Bool
    /// Why the database was opened read-only (`openReadOnly`): every write is refused with it.
    /// Nil when the database may be written.
    public let readOnlyReason: String?
    /// Physical time in milliseconds since 1970, read only to stamp a shared ledger's change sets
    /// (tests give devices skewed clocks through it).
    public var clock: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// A database, or a ledger file resolved in memory (given a database only when a query needs one).
    private enum Backing: Sendable {
        case database(any DatabaseWriter)
        case file(LoadedFile)
    }

    private init(writer: any DatabaseWriter, location: String, isReadOnly: Bool, readOnlyReason: String? = nil) {
        self.backing = .database(writer)
        self.location = location
        self.isReadOnly = isReadOnly
        self.readOnlyReason = readOnlyReason
    }

    init(file: ResolvedLedger) {
        self.backing = .file(LoadedFile(file))
        self.location = file.file
        self.isReadOnly = true
        self.readOnlyReason = nil
    }

    /// The ledger file this store was loaded from, resolved; nil for a database.
    public var resolvedFile: ResolvedLedger? {
        if case .file(let loaded) = backing { return loaded.resolved }
        return nil
    }

    /// A lookup in a resolved ledger file, its errors as the database's would be.
    static func fromFile<T>(_ file: ResolvedLedger, _ body: () throws -> T) throws(StoreError) -> T {
        do { return try body() } catch let error as StoreError { throw error } catch {
            throw .unexpected(path: file.file, context: "reading the ledger", reason: "\(error)", readOnly: true)
        }
    }

    /// The ledger of the file this store was loaded from; nil for a database.
    var fileLedger: Result<Ledger, StoreError>? {
        if case .file(let loaded) = backing { return loaded.ledger }
        return nil
    }

    /// The database: the store's own, or for a ledger file an in-memory one filled from it (once).
    func writer() throws(StoreError) -> any DatabaseWriter {
        switch backing {
        case .database(let writer): return writer
        case .file(let loaded): return try loaded.database(location: location)
        }
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
        let existing = manager.fileExists(atPath: path, isDirectory: &isFolder)
        if existing {
            if isFolder.boolValue { throw .cannotOpen(path: path, reason: "it is a folder; give the path of a database file inside it") }
        } else {
            let fd = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if fd < 0 { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
            close(fd)
        }
        do {
            let queue = try existing ? checkedQueue(path: path) : DatabaseQueue(path: path, configuration: Store.configuration())
            // WAL is a persistent property of the file: set once, a no-op afterwards, so opening
            // a database to read it writes nothing.
            try queue.writeWithoutTransaction { db in
                do {
                    if try String.fetchOne(db.cachedStatement(sql: "PRAGMA journal_mode")) != "wal" {
                        try db.execute(sql: "PRAGMA journal_mode = WAL")
                    }
                } catch let error as DatabaseError {
                    if let failure = Store.storageFailure(error, db, path: path, context: "opening the database") { throw failure }
                    throw error
                }
            }
            do {
                try Migrations.migrator.migrate(queue)
            } catch let error as DatabaseError {
                if let failure = Store.storageFailure(error, nil, path: path, context: "opening the database") { throw failure }
                throw error
            }
            return Store(writer: queue, location: path, isReadOnly: false)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            if Store.isDamage(error) { throw .damaged(path: path, context: "opening it", reason: Store.describe(error)) }
            if let failure = Store.storageFailure(error, nil, path: path, context: "opening the database") { throw failure }
            throw .cannotOpen(path: path, reason: Store.describe(error))
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Why the database at `path` cannot be written, as `access(2)` tells: the file, or the folder
    /// that holds it (where SQLite makes its `-wal` and `-shm` files), is not writable or on a
    /// read-only file system. Nil when both may be written, or do not exist yet.
    ///
    /// `root` may write whatever the mode bits forbid, so for it only a read-only file system
    /// (`EROFS`) counts.
    public static func unwritable(path: String) -> String? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        func why(_ what: String, _ code: Int32) -> String {
            code == EROFS ? "\(what) is on a read-only file system" : "\(what) is not writable"
        }
        if access(path, F_OK) == 0 && access(path, W_OK) != 0 { return why("the file", errno) }
        if access(folder, F_OK) == 0 && access(folder, W_OK) != 0 { return why("its folder \(folder)", errno) }
        return nil
    }

    /// Opens the existing database at `path` for reading only, with SQLite's read-only flag:
    /// nothing is created, migrated or written, and every write is refused with
    /// `.databaseReadOnly` naming `reason`.
    ///
    /// A WAL database needs a `-shm` file beside it to be read; in a folder that cannot be written
    /// and holding no `-wal` file (a database closed cleanly), SQLite cannot make one, so the file
    /// is opened immutable (SQLite's `immutable=1`): read as it is, without locks.
    /// - Parameter reason: what is read-only, as `unwritable(path:)` says.
    /// - Throws: `.notCapitalDatabase`, `.newerSchema`, `.cannotOpen`, and `.databaseReadOnly`
    ///   for a database of an older schema (upgrading it writes it).
    public static func openReadOnly(path: String, reason: String) throws(StoreError) -> Store {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var config = Store.configuration()
        config.readonly = true
        let immutable = access(folder, W_OK) != 0 && !FileManager.default.fileExists(atPath: path + "-wal")
        let target = immutable ? "file:\(uriPath(URL(fileURLWithPath: path).path))?immutable=1" : path
        do {
            let queue = try DatabaseQueue(path: target, configuration: config)
            do {
                try queue.read { db in
                    try requireKnownSchema(db, path: path)
                    guard try Migrations.migrator.hasCompletedMigrations(db) else {
                        throw StoreError.databaseReadOnly(
                            path: path, reason: "\(reason), and the database needs upgrading to this version of capital, which writes it")
                    }
                }
            } catch {
                try? queue.close()
                throw error
            }
            return Store(writer: queue, location: path, isReadOnly: false, readOnlyReason: reason)
        } catch {
            throw inspectionError(error, path: path)
        }
    }

    /// An absolute path as the path of a `file:` URI: `%`, `?` and `#` percent-encoded.
    private static func uriPath(_ path: String) -> String {
        var text = ""
        for character in path {
            switch character {
            case "%": text += "%25"
            case "?": text += "%3F"
            case "#": text += "%23"
            default: text.append(character)
            }
        }
        return text
    }

    /// An empty in-memory store, for ledger files opened with `-f` and for tests.
    public static func inMemory(location: String = ":memory:", readOnly: Bool = false) throws(StoreError) -> Store {
        do {
            let queue = try DatabaseQueue(configuration: Store.configuration())
            try Store.migratedTemplate.get().backup(to: queue)
            return Store(writer: queue, location: location, isReadOnly: readOnly)
        } catch let error as DatabaseError {
            throw .database(context: "creating an in-memory store", error)
        } catch {
            throw .cannotOpen(path: location, reason: "\(error)")
        }
    }

    /// An empty database at the current schema, made once per process: a new in-memory store is
    /// a copy of it (SQLite's backup, well under a millisecond), not eleven migrations (tens of
    /// milliseconds, paid by every `-f` command and every test).
    private static let migratedTemplate: Result<DatabaseQueue, any Error> = Result {
        let queue = try DatabaseQueue(configuration: Store.configuration())
        try Migrations.migrator.migrate(queue)
        return queue
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        config.label = "capital"
        return config
    }

    /// The store's connection to an existing file, once a read on it found the file empty or a
    /// capital database whose every schema version this program knows: nothing is written to the
    /// file before (opening a connection and reading write nothing). One connection, not an
    /// inspecting one and then the store's: each parses the schema, about 2 ms a command.
    private static func checkedQueue(path: String, configuration: Configuration = Store.configuration()) throws(StoreError)
        -> DatabaseQueue
    {
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
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
        return try checkedQueue(path: path, configuration: config)
    }

    private static func inspectionError(_ error: any Error, path: String) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as DatabaseError where isDamage(error):
            return .cannotOpen(path: path, reason: "the file is not a SQLite database or is damaged (\(describe(error)))")
        case let error as DatabaseError where storageFailure(error, nil, path: path, context: "opening the database") != nil:
            return storageFailure(error, nil, path: path, context: "opening the database")!
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

    /// A failed write told as what it is, or nil for any other error. Call it first thing where
    /// the error is caught: it reads `errno`.
    ///
    /// SQLITE_FULL is a full disk. SQLITE_IOERR is one too when the system error is ENOSPC, EDQUOT
    /// or EFBIG (past a file-size limit, `ulimit -f`, SQLite reports SQLITE_IOERR_WRITE, or
    /// SQLITE_IOERR_SHMSIZE while growing the -shm file); any other SQLITE_IOERR is an I/O error
    /// on the file. Either way SQLite has rolled the transaction back.
    ///
    /// The system error comes from `sqlite3_system_errno`, else from `errno` (SQLite 3.40 leaves
    /// the former unset when a COMMIT fails, while `errno` still holds the failed write's), else
    /// from the file system as it is now (`spaceProbe`).
    static func storageFailure(_ error: DatabaseError, _ db: Database?, path: String, context: String) -> StoreError? {
        let last = errno
        if error.resultCode == .SQLITE_READONLY {
            return .databaseReadOnly(path: path, reason: unwritable(path: path) ?? "SQLite cannot write it (\(describe(error)))")
        }
        guard error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR else { return nil }
        let reported = db.map { sqlite3_system_errno($0.sqliteConnection) } ?? 0
        let space = [reported, last].first { $0 == ENOSPC || $0 == EDQUOT || $0 == EFBIG } ?? spaceProbe(path)
        if error.resultCode == .SQLITE_FULL || space != 0 {
            return .diskFull(path: path, context: context, reason: spaceReason(space == 0 ? ENOSPC : space))
        }
        let system = reported == 0 ? "" : "\(String(cString: strerror(reported))), "
        return .ioError(path: path, context: context, reason: "\(system)SQLite error \(error.extendedResultCode.rawValue): \(describe(error))")
    }

    /// Why a write may have failed for want of space, as the file system tells now: EFBIG when a
    /// file-size limit (`ulimit -f`) is within 64 KiB of the database's files, ENOSPC with less
    /// than 1 MiB free beside them, else 0.
    static func spaceProbe(_ path: String) -> Int32 {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
            let resource = RLIMIT_FSIZE
        #endif
        if getrlimit(resource, &limit) == 0 && limit.rlim_cur != rlim_t.max {  // RLIM_INFINITY
            var largest: UInt64 = 0
            for suffix in ["", "-wal", "-shm"] {
                var info = stat()
                if stat(path + suffix, &info) == 0 { largest = max(largest, UInt64(info.st_size)) }
            }
            if largest + (64 << 10) >= UInt64(limit.rlim_cur) { return EFBIG }
        }
        var stats = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if statvfs(folder, &stats) == 0 && UInt64(stats.f_bavail) * UInt64(stats.f_frsize) < 1 << 20 { return ENOSPC }
        return 0
    }

    private static func spaceReason(_ code: Int32) -> String {
        switch code {
        case EFBIG: return "past the file-size limit, ulimit -f"
        case EDQUOT: return "the disk quota is exceeded"
        default: return "no space left on the device"
        }
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
        try write(context, referencesAtEnd: false, body)
    }

    /// `write(_:_:)` for an import of a ledger file, whose every posting names a transaction it
    /// has just written and an account it has looked up: SQLite's foreign-key checks are off
    /// while `body` runs (two parent lookups per posting were an eighth of an import of a million
    /// transactions) and the references are checked once before the commit
    /// (`References`), so that a row naming a missing row still fails the whole write.
    func bulkWrite<T>(_ context: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        try write(context, referencesAtEnd: true, body)
    }

    private func write<T>(_ context: String, referencesAtEnd: Bool, _ body: (Database) throws -> T) throws(StoreError) -> T {
        if isReadOnly { throw .readOnly(path: location) }
        if let readOnlyReason { throw .databaseReadOnly(path: location, reason: readOnlyReason) }
        do {
            return try writer().writeWithoutTransaction { db in
                do {
                    // The setting takes effect only outside a transaction; it is put back whatever the outcome.
                    if referencesAtEnd { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
                    let outcome = Result {
                        var result: T?
                        try db.inTransaction(.immediate) {
                            let before = try referencesAtEnd ? Store.References(db) : nil
                            result = try body(db)
                            try SyncCapture.flush(db, now: clock())
                            if let before { try before.check(db) }
                            return .commit
                        }
                        return result!
                    }
                    if referencesAtEnd {
                        // Back on, or no later write of this connection may run: the write's own error first.
                        let restored = Result { try db.execute(sql: "PRAGMA foreign_keys = ON") }
                        if case .failure(let error) = outcome { throw error }
                        try restored.get()
                        guard try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true else {
                            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "foreign-key checks could not be turned back on")
                        }
                    }
                    return try outcome.get()
                } catch let error as DatabaseError {
                    if let failure = Store.storageFailure(error, db, path: location, context: context) { throw failure }
                    throw error
                }
            }
        } catch {
            throw storeError(error, context) {
                .conflict("{database} \(FieldKeys.literal(location)): \(FieldKeys.literal(context)): \(FieldKeys.literal("\($0)"))")
            }
        }
    }

    /// What a write made with SQLite's foreign-key checks off (`bulkWrite`) must not add to: the
    /// rows of the tables but postings that name a missing row, and the last posting's rowid,
    /// taken before the write. `check` then refuses, with SQLite's own error, what SQLite would
    /// have refused row by row in a write that inserts (an import): a row it added that names a
    /// missing row. (A row left dangling by an older mistake, which `capital check` reports, does
    /// not stop it.) Not for writes that delete or re-point rows: with the checks off no cascade
    /// runs, a parent's deletion is not checked, and an older posting changed is not looked at.
    struct References {
        private let dangling: Set<[String]>
        private let postings: Int64

        init(_ db: Database) throws {
            dangling = try Self.dangling(db)
            postings = try lastPosting(db)
        }

        /// Throws SQLite's foreign-key error when the write left a row naming a missing row: in
        /// the tables but postings, by `PRAGMA foreign_key_check` (an import's other tables are
        /// small); among the new postings, by a seek per distinct account the postings name
        /// (one more per missing one, for a new posting naming it), and their transactions by one
        /// pass of the postings' transaction index beside the transactions' own (both in id
        /// order, so a lookup lands where the last one did) when they are many, else a lookup each.
        /// - Complexity: O(rows of the other tables + accounts × log postings + new postings × log transactions).
        func check(_ db: Database) throws {
            let failure = DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: "FOREIGN KEY constraint failed")
            guard try Self.dangling(db).isSubset(of: dangling) else { throw failure }
            // Each value as SQLite holds it (a value damaged by hand, not text, still moves the walk on).
            var account = try DatabaseValue.fetchOne(db, sql: "SELECT MIN(accountId) FROM posting") ?? .null
            while !account.isNull {
                if try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM account WHERE id = ?)"), arguments: [account]) != true,
                    try Bool.fetchOne(
                        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM posting WHERE accountId = ? AND rowid > ?)"),
                        arguments: [account, postings]) == true
                {
                    throw failure
                }
                account =
                    try DatabaseValue.fetchOne(
                        db.cachedStatement(sql: "SELECT MIN(accountId) FROM posting WHERE accountId > ?"), arguments: [account]) ?? .null
            }
            let last = try lastPosting(db)
            // `+rowid`: not a range of the table to read, a filter on the transaction index, which
            // holds each posting's rowid (a pass over it reads no posting itself: 0.4 s against 2.6 s
            // for 10^6 transactions).
            let orphan =
                (last - postings) * 4 >= last
                ? "SELECT EXISTS (SELECT 1 FROM posting WHERE +rowid > ? AND txnId NOT IN (SELECT id FROM txn))"
                : "SELECT EXISTS (SELECT 1 FROM posting WHERE rowid > ? AND NOT EXISTS (SELECT 1 FROM txn WHERE txn.id = posting.txnId))"
            if try Bool.fetchOne(db, sql: orphan, arguments: [postings]) == true { throw failure }
        }

        /// The rows of every table but postings that name a missing row, as `foreign_key_check` lists them.
        private static func dangling(_ db: Database) throws -> Set<[String]> {
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'posting' AND sql LIKE '%REFERENCES%' ORDER BY name")
            var rows: Set<[String]> = []
            for table in tables {
                for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check(\(table.quotedDatabaseIdentifier))") {
                    rows.insert(row.databaseValues.map(\.description))
                }
            }
            return rows
        }
    }

    /// The largest posting rowid: postings written later have larger ones.
    static func lastPosting(_ db: Database) throws -> Int64 { try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(rowid), 0) FROM posting") ?? 0 }

    /// Runs `body` in one read transaction.
    func read<T>(_ context: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writer().read(body)
        } catch {
            // Anything else is a value the program cannot take in (a currency code that is not one,
            // a rule that does not parse): the file was changed behind capital's back, or damaged.
            throw storeError(error, context) { .unexpected(path: location, context: context, reason: "\($0)", readOnly: isReadOnly) }
        }
    }

    /// An error of a transaction as a `StoreError`: the store's own with the place, a damaged file
    /// as damage, SQLite's as a database error, anything else as `other` makes it.
    private func storeError(_ error: any Error, _ context: String, other: (any Error) -> StoreError) -> StoreError {
        switch error {
        case let error as StoreError: error.at(location)
        case let error as DatabaseError where Store.isDamage(error): .damaged(path: location, context: context, reason: Store.describe(error))
        case let error as DatabaseError: .database(context: context, error)
        default: other(error)
        }
    }

    /// A new id for a record people refer to by its first eight characters (`shortID`): a random
    /// UUID, so that those characters tell records apart.
    public static func newID() -> String { RecordID.random() }

    /// A new id for a posting, which nobody refers to by a prefix: one in time order (`RecordID`).
    static func newPostingID() -> String { RecordID.next() }
}

/// A ledger file resolved in memory, and the in-memory database a query may ask of it.
private final class LoadedFile: @unchecked Sendable {
    let resolved: ResolvedLedger
    /// The file's ledger, made once.
    let ledger: Result<Ledger, StoreError>
    private let lock = NSLock()
    private var queue: DatabaseQueue?

    init(_ resolved: ResolvedLedger) {
        self.resolved = resolved
        ledger = Result { () throws(StoreError) in try resolved.ledger }
    }

    /// The in-memory database holding the file, filled on first use as an import fills one.
    func database(location: String) throws(StoreError) -> DatabaseQueue {
        lock.lock()
        defer { lock.unlock() }
        if let queue { return queue }
        do {
            let made = try DatabaseQueue(configuration: Store.configuration())
            try Migrations.migrator.migrate(made)
            try made.write { db in try Store.insert(resolved, db) }
            queue = made
            return made
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw .database(context: "loading \(location)", error)
        } catch {
            throw .conflict(FieldKeys.literal("\(location): \(error)"))
        }
    }
}
