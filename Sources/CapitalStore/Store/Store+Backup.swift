import CapitalCore
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `Store.backup` wrote.
public struct BackupSummary: Sendable {
    /// The copy's path.
    public var path: String
    /// The copy's size in bytes.
    public var bytes: Int64
    /// Live transactions in the copy.
    public var transactions: Int
}

extension Store {
    /// Writes a consistent copy of the database at `source` to `destination` with SQLite's online
    /// backup API, while other processes may go on writing to `source`: the copy is the database as
    /// one transaction saw it, every transaction in it whole.
    ///
    /// The copy is written to a temporary file beside `destination` (mode 0600, like the database),
    /// flushed to disk, then moved into place, so `destination` is never a half-written file.
    /// `source` is opened with a connection that never writes, and is not migrated.
    /// ```swift
    /// try Store.backup("capital.sqlite", to: "/mnt/usb/capital-2025-04-01.sqlite")
    /// ```
    /// - Parameter replacing: replace an existing `destination` (`--force`); otherwise it is refused.
    /// - Throws: `StoreError.cannotWriteBackup` naming `destination` (its folder is missing, the
    ///   file exists, it is the database itself, the disk is full …); the errors of `check(path:)`
    ///   for a `source` that is not a capital database. Nothing is left behind on failure.
    /// - Complexity: O(size of the database).
    @discardableResult
    public static func backup(_ source: String, to destination: String, replacing: Bool = false) throws(StoreError) -> BackupSummary {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source) else { throw .cannotOpen(path: source, reason: "there is no file there") }
        try checkDestination(destination, source: source, replacing: replacing)
        let sourceQueue = try inspectionQueue(path: source)
        defer { try? sourceQueue.close() }

        let temporary = destination + ".partial-\(UUID().uuidString.prefix(8).lowercased())"
        let fd = Foundation.open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd < 0 { throw .cannotWriteBackup(path: destination, reason: FieldKeys.literal(String(cString: strerror(errno)))) }
        close(fd)
        var moved = false
        defer {
            if !moved { for suffix in ["", "-wal", "-shm", "-journal"] { try? manager.removeItem(atPath: temporary + suffix) } }
        }
        let transactions: Int
        do {
            var config = Configuration()
            config.busyMode = .timeout(10)
            config.label = "capital-backup"
            let copy = try DatabaseQueue(path: temporary, configuration: config)
            try sourceQueue.backup(to: copy)
            transactions = try copy.read { db in
                try db.tableExists("txn") ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn WHERE deleted = 0") ?? 0 : 0
            }
            try copy.close()
        } catch let error as DatabaseError {
            if isDamage(error) { throw .damaged(path: source, context: "copying it to \(destination)", reason: describe(error)) }
            let reason = error.resultCode == .SQLITE_FULL ? "the disk is full" : "SQLite error \(error.resultCode.rawValue): \(describe(error))"
            throw .cannotWriteBackup(path: destination, reason: FieldKeys.literal(reason))
        } catch {
            throw .cannotWriteBackup(path: destination, reason: FieldKeys.literal("\(error)"))
        }
        try sync(temporary, destination: destination)
        chmod(temporary, 0o600)
        if replacing {
            if rename(temporary, destination) != 0 {
                throw .cannotWriteBackup(path: destination, reason: FieldKeys.literal(String(cString: strerror(errno))))
            }
        } else {
            // link() never replaces: a file that appeared since the check above is kept.
            if link(temporary, destination) != 0 {
                let reason = errno == EEXIST ? "the file exists; give {force} to replace it" : FieldKeys.literal(String(cString: strerror(errno)))
                throw .cannotWriteBackup(path: destination, reason: reason)
            }
            unlink(temporary)
        }
        moved = true
        try sync(URL(fileURLWithPath: destination).deletingLastPathComponent().path, destination: destination)
        let size = (try? manager.attributesOfItem(atPath: destination)[.size] as? NSNumber)?.int64Value ?? 0
        return BackupSummary(path: destination, bytes: size, transactions: transactions)
    }

    /// Refuses a destination whose folder is missing, that is a folder, that exists (unless
    /// replacing), that is the database itself, or that has SQLite side files a copy must not meet.
    private static func checkDestination(_ destination: String, source: String, replacing: Bool) throws(StoreError) {
        let manager = FileManager.default
        let folder = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw .cannotWriteBackup(path: destination, reason: "the folder \(FieldKeys.literal(folder)) does not exist")
        }
        guard isFolder.boolValue else { throw .cannotWriteBackup(path: destination, reason: "\(FieldKeys.literal(folder)) is a file, not a folder") }
        if manager.fileExists(atPath: destination, isDirectory: &isFolder) {
            if isFolder.boolValue { throw .cannotWriteBackup(path: destination, reason: "it is a folder; give the path of a file inside it") }
            var a = stat()
            var b = stat()
            if stat(source, &a) == 0 && stat(destination, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino {
                throw .cannotWriteBackup(path: destination, reason: "it is the database itself")
            }
            if !replacing { throw .cannotWriteBackup(path: destination, reason: "the file exists; give {force} to replace it") }
        }
        // A journal left by a program that has (or had) the old file open would be played into the copy.
        for suffix in ["-wal", "-journal"] where manager.fileExists(atPath: destination + suffix) {
            throw .cannotWriteBackup(
                path: destination,
                reason:
                    "\(FieldKeys.literal(destination + suffix)) exists: a program has the old file open, or did not close it cleanly; close it or remove that file first"
            )
        }
    }

    /// Flushes a file (or a folder's entries) to disk.
    private static func sync(_ path: String, destination: String) throws(StoreError) {
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .cannotWriteBackup(path: destination, reason: FieldKeys.literal("\(path): \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        if fsync(fd) != 0 {
            throw .cannotWriteBackup(path: destination, reason: FieldKeys.literal("flushing \(path): \(String(cString: strerror(errno)))"))
        }
    }
}

extension Store {
    /// A copy of this database in memory (for tests that start many devices from one state).
    func inMemoryCopy() throws(StoreError) -> Store {
        let copy = try Store.inMemory(location: location)
        do {
            try writer().backup(to: copy.writer())
        } catch {
            throw .unexpected(path: location, context: "copying the database", reason: "\(error)", readOnly: false)
        }
        var store = copy
        store.clock = clock
        return store
    }
}
