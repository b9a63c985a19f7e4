import Foundation
import GRDB

/// A database file seen from outside capital: raw SQL to set up states the store refuses to make,
/// and the file's own layout (pages, b-tree leaves) to damage it in known places.
enum RawDatabase {
    /// Runs `body` on a plain read-write connection with foreign keys off, then closes it (so no
    /// `-wal` or `-shm` file is left behind).
    static func write(_ path: String, _ body: (Database) throws -> Void) throws {
        var config = Configuration()
        config.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: config)
        try queue.write(body)
        try queue.close()
    }

    /// Reads with a plain connection (read-write, so it cleans up after itself), then closes it.
    static func read<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: path)
        let result = try queue.read(body)
        try queue.close()
        return result
    }

    /// The SQLite side files next to `path` that exist: `-wal`, `-shm`, `-journal`.
    static func sideFiles(_ path: String) -> [String] {
        ["-wal", "-shm", "-journal"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// A table's b-tree: the page size, its root page and its leaf pages (1-based page numbers),
    /// read from the file's bytes by the layout in https://sqlite.org/fileformat2.html#b_tree_pages.
    struct Tree {
        var pageSize: Int
        var root: Int
        var leaves: [Int]

        /// The byte offset of `page` in the file.
        func offset(_ page: Int) -> Int { (page - 1) * pageSize }
    }

    static func tree(of table: String, in path: String) throws -> Tree {
        let (pageSize, root) = try read(path) { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
                try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]) ?? 0
            )
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func integer(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        func leaves(_ page: Int) -> [Int] {
            let start = (page - 1) * pageSize + (page == 1 ? 100 : 0)
            switch bytes[start] {
            case 0x0D:  // table leaf
                return [page]
            case 0x05:  // table interior: cell pointers to cells that begin with a child page number, then the right-most child
                let cells = integer(start + 3, 2)
                let children = (0..<cells).map { integer((page - 1) * pageSize + integer(start + 12 + 2 * $0, 2), 4) } + [integer(start + 8, 4)]
                return children.flatMap(leaves)
            default:
                return []
            }
        }
        return Tree(pageSize: pageSize, root: root, leaves: leaves(root))
    }

    /// The first byte of a leaf page's cell content area and the end of the page: every byte in
    /// between belongs to a row (in a file written by inserts only, the area has no free blocks).
    static func cellContent(ofLeaf page: Int, _ tree: Tree, in bytes: Data) -> Range<Int> {
        let start = tree.offset(page)
        let contentStart = Int(bytes[start + 5]) << 8 | Int(bytes[start + 6])
        return (start + contentStart)..<(start + tree.pageSize)
    }
}
