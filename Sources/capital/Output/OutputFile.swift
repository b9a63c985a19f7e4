import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--out FILE` and `--force`: where a command writes instead of standard output.
struct OutOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write to this file instead of standard output (refused if it exists, unless --force).", valueName: "file"))
    var out: String?
    @Flag(help: "Replace the --out file if it exists (never the database or a file being read).") var force = false

    /// The file to write, checked against `global`'s database and ledger file and the files the
    /// command reads (`reading`); nil for standard output.
    func file(_ global: GlobalOptions, reading: [String] = []) throws -> OutputFile? {
        try out.map { try OutputFile($0, force: force, protected: global.protectedPaths, reading: reading) }
    }
}

extension GlobalOptions {
    /// Writes `text` whole to `out`, or to standard output.
    func write(_ text: String, to out: OutputFile?) throws {
        if let out { try out.write(text) } else { Console.current.write(text) }
    }

    /// Files no `--out` may replace: the database with its -wal and -shm, and the ledger file of `-f`.
    var protectedPaths: [String] {
        if let file { return [file] }
        let db = databasePath
        return [db, db + "-wal", db + "-shm", db + "-journal"]
    }
}

/// A file a command writes whole or not at all: checked before anything is computed, written to a
/// temporary file beside it, then renamed into place (a crash leaves the old file or the new one,
/// never half of one). A character device or a pipe (`/dev/null`, `/dev/stdout`, a named pipe)
/// is written into directly: there is no file to replace.
struct OutputFile {
    let path: String
    let temporary: String
    /// Written into directly: a character device or a pipe.
    let direct: Bool

    /// Checks that `path` may be written: its folder exists, it is not a folder, not one of
    /// `protected` nor one of the files the command reads, `reading` (even with `force`), and it
    /// does not exist unless `force`.
    /// - Throws: `CLIError` naming `--out`, the path and why.
    init(_ path: String, force: Bool, protected: [String], reading: [String] = []) throws {
        let manager = FileManager.default
        guard !path.isEmpty else { throw CLIError.invalid("--out", path, "give a file name") }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIError.refused("--out", path, "its folder \(folder) does not exist")
        }
        let target = OutputFile.canonical(path)
        if protected.contains(where: { OutputFile.canonical($0) == target }) {
            throw CLIError.refused("--out", path, "is the ledger this command reads; write somewhere else")
        }
        if reading.contains(where: { OutputFile.canonical($0) == target }) {
            throw CLIError.refused("--out", path, "is the file this command reads; write somewhere else")
        }
        var direct = false
        if manager.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { throw CLIError.refused("--out", path, "is a folder; give a file name") }
            var status = stat()
            let type = stat(path, &status) == 0 ? status.st_mode & S_IFMT : S_IFREG
            if type == S_IFCHR || type == S_IFIFO {
                direct = true
            } else if type != S_IFREG {
                throw CLIError.refused("--out", path, "is not a file, a pipe or a terminal; give a file name")
            } else if !force {
                throw CLIError.refused("--out", path, "exists; add --force to replace it")
            }
        }
        self.path = path
        self.direct = direct
        temporary = folder + "/." + url.lastPathComponent + ".capital-\(getpid()).tmp"
    }

    /// The path with symbolic links and `.`/`..` resolved (as far as it exists), to compare files.
    static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath()
        return folder.appendingPathComponent(url.lastPathComponent).resolvingSymlinksInPath().path
    }

    /// Writes `text` whole; `ownerOnly` (the default: what capital writes is the household's) makes the file the owner's only (mode 0600), as a ledger is.
    func write(_ text: String, ownerOnly: Bool = true) throws {
        try stream(ownerOnly: ownerOnly) { write in try write(text) }
    }

    /// Writes what `body` hands its writer, part by part, and puts the file in place when `body`
    /// returns; when it throws (or a part cannot be written), nothing is left behind.
    func stream(ownerOnly: Bool = true, _ body: (_ write: (String) throws -> Void) throws -> Void) throws {
        let handle = try open(ownerOnly: ownerOnly)
        do {
            try body { text in
                do { try OutputFile.write(Array(text.utf8)[...], to: handle) } catch {
                    throw CLIError.invalid("--out", path, "cannot be written: \(error)")
                }
            }
        } catch {
            abandon(handle)
            throw error
        }
        try commit(handle)
    }

    /// The temporary file, open for writing; `commit(_:)` puts it in place.
    func open(ownerOnly: Bool = true) throws -> FileHandle {
        if direct {
            guard let handle = FileHandle(forWritingAtPath: path) else { throw CLIError.invalid("--out", path, "cannot be written") }
            return handle
        }
        let manager = FileManager.default
        try? manager.removeItem(atPath: temporary)
        let attributes: [FileAttributeKey: Any]? = ownerOnly ? [.posixPermissions: 0o600] : nil
        guard manager.createFile(atPath: temporary, contents: nil, attributes: attributes),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw CLIError.invalid("--out", path, "cannot be written")
        }
        return handle
    }

    /// Flushes and closes `handle` and renames the temporary file over `path`.
    func commit(_ handle: FileHandle) throws {
        if direct {
            try? handle.close()
            return
        }
        do {
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, path) == 0 else { throw CLIError.invalid("--out", path, String(cString: strerror(errno))) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            if let error = error as? CLIError { throw error }
            throw CLIError.invalid("--out", path, "cannot be written: \((error as NSError).localizedDescription)")
        }
    }

    /// Writes `bytes` whole to `handle`'s file (retrying short writes and interruptions).
    /// - Throws: the system's reason, in words.
    /// On Linux, a large write (a megabyte or more) also starts its write-back to disk at once
    /// (`posix_fadvise` with `POSIX_FADV_DONTNEED` does, and then lets the pages go), so that the
    /// `fsync` before the rename has little left to wait for.
    static func write(_ bytes: ArraySlice<UInt8>, to handle: FileHandle) throws {
        #if os(Linux)
            let start = bytes.count >= 1 << 20 ? lseek(handle.fileDescriptor, 0, SEEK_CUR) : -1
            defer { if start >= 0 { _ = posix_fadvise(handle.fileDescriptor, start, off_t(bytes.count), POSIX_FADV_DONTNEED) } }
        #endif
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                #if canImport(Glibc)
                    let written = Glibc.write(handle.fileDescriptor, raw.baseAddress! + done, raw.count - done)
                #else
                    let written = Darwin.write(handle.fileDescriptor, raw.baseAddress! + done, raw.count - done)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CLIError(String(cString: strerror(errno)))
                }
                done += written
            }
        }
    }

    /// Removes the temporary file of a write that failed.
    func abandon(_ handle: FileHandle) {
        try? handle.close()
        if direct { return }
        try? FileManager.default.removeItem(atPath: temporary)
    }
}
