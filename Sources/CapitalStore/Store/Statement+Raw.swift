import GRDB
import GRDBSQLite

/// A value bound to an insert through SQLite's C interface (`Statement.insert(_:_:)`).
enum RawValue {
    case text(String)
    case integer(Int64)
    case null
}

extension Statement {
    /// Runs this statement (an insert, a cached one) with `values` bound through SQLite's C
    /// interface: GRDB's `StatementArguments`, an array of boxed values built for each row, was
    /// a tenth of the time an import of a million transactions spent writing. A failure is GRDB's
    /// `DatabaseError`, as `execute(arguments:)` throws it. (Nothing in capital observes GRDB's
    /// statements; SQLite's own hooks and triggers see these rows as any others.)
    func insert(_ db: Database, _ values: RawValue...) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null:
                sqlite3_bind_null(handle, index)
            case .integer(let number):
                sqlite3_bind_int64(handle, index, number)
            case .text(var text):
                // Copied by SQLite (SQLITE_TRANSIENT): the bytes live only in this call.
                text.withUTF8 { bytes in
                    _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                        // Empty text is text, not NULL (an empty buffer may have no address).
                        guard let start = chars.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Statement.transient) }
                        return sqlite3_bind_text(handle, index, start, Int32(chars.count), Statement.transient)
                    }
                }
            }
        }
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
        }
    }

    /// SQLite's "copy the bytes" destructor.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
