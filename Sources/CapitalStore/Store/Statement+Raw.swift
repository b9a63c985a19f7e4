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
        let code = bind(values[...], from: 1)
        sqlite3_clear_bindings(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
        }
    }

    /// Binds `values` from parameter `index` on and steps the statement once all are bound. A text
    /// is bound without a copy (SQLITE_STATIC) inside the call that lends its bytes, and the step
    /// runs inside the innermost of these calls, while every text's bytes are still lent: SQLite's
    /// copies (an allocation and a free under its memory mutex per text) were a twentieth of an
    /// import of a million transactions. SQLite reads the bytes only while it steps; `insert`
    /// clears the bindings after it, before anything else can run the statement.
    private func bind(_ values: ArraySlice<RawValue>, from index: Int32) -> Int32 {
        let handle = sqliteStatement
        guard let value = values.first else { return sqlite3_step(handle) }
        let rest = values.dropFirst()
        switch value {
        case .null:
            sqlite3_bind_null(handle, index)
        case .integer(let number):
            sqlite3_bind_int64(handle, index, number)
        case .text(var text):
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    // Empty text is text, not NULL (an empty buffer may have no address).
                    let code =
                        if let start = chars.baseAddress {
                            sqlite3_bind_text(handle, index, start, Int32(chars.count), Statement.static)
                        } else {
                            sqlite3_bind_text(handle, index, "", 0, Statement.transient)
                        }
                    guard code == SQLITE_OK else { return code }
                    return bind(rest, from: index + 1)
                }
            }
        }
        return bind(rest, from: index + 1)
    }

    /// SQLite's "the bytes stay where they are until the statement is done with them" destructor.
    private static let `static` = unsafeBitCast(0, to: sqlite3_destructor_type.self)
    /// SQLite's "copy the bytes" destructor.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
