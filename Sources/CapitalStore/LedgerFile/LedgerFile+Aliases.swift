import CYaml
import Foundation

extension LedgerFile {
    /// Refuses a file whose anchors and aliases stand for far more than the file holds: the
    /// "billion laughs" of ten aliases to ten aliases to … a scalar.
    ///
    /// Yams shares an aliased node rather than copying it, so such a file costs little memory, but
    /// a mapping key that is an alias is hashed whole (Yams checks keys for duplicates) and every
    /// aliased scalar is stored again on import: a 1 KB file could stand for 10^10 nodes and never
    /// finish. This walks libyaml's events once, before Yams composes the tree, and adds up the
    /// expanded size: each node counts 1 plus its scalar's bytes, an alias counts what its anchor
    /// stands for. Files without `*` (no alias) are not walked.
    ///
    /// The limit is `aliasExpansionAllowance` plus `aliasExpansionFactor` units per byte of text:
    /// a file without aliases stands for about twice its length, so only aliasing passes it.
    /// Syntax errors are left to Yams, which reports them with their place.
    /// - Throws: `LedgerFileError` at the line where the expansion passes the limit.
    /// - Complexity: O(n) in the length of `text`, whatever its aliases stand for.
    static func checkAliasExpansion(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(LedgerFileError) {
        guard let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "*")), bytes.count) != nil else { return }
        let limit = aliasExpansionAllowance + aliasExpansionFactor * bytes.count
        let passed: Int? = {
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, base, bytes.count)
            return expansionPassing(limit, &parser)
        }()
        if let line = passed {
            throw LedgerFileError(
                FileLocation(file: file, line: line, path: "aliases"),
                "the file's aliases stand for more than \(limit) nodes and characters (it has \(bytes.count) bytes): an alias bomb is not a ledger; write the repeated parts out"
            )
        }
    }

    /// Fixed units of expansion every file may use.
    static let aliasExpansionAllowance = 1_000_000
    /// Units of expansion allowed per byte of the file.
    static let aliasExpansionFactor = 16

    /// The 1-based line of the event at which the expanded size passes `limit`, or nil when it
    /// never does (or the text stops parsing first).
    private static func expansionPassing(_ limit: Int, _ parser: inout yaml_parser_t) -> Int? {
        var anchors: [String: Int] = [:]
        // The expanded size of each collection still open, and its anchor.
        var open: [(anchor: String?, size: Int)] = []
        // Every unit seen so far; a collection's size is counted through its children, so this
        // is never less than any size held, and no sum below can overflow before it passes `limit`.
        var total = 0
        func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            anchor.map { String(cString: $0) }
        }
        func close(_ size: Int, anchor: String?) {
            if let anchor { anchors[anchor] = size }
            if !open.isEmpty { open[open.count - 1].size += size }
        }
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nil
            case YAML_SCALAR_EVENT:
                let size = 1 + Int(event.data.scalar.length)
                total += size
                close(size, anchor: name(event.data.scalar.anchor))
            case YAML_ALIAS_EVENT:
                let size = name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1
                total += size
                close(size, anchor: nil)
            case YAML_SEQUENCE_START_EVENT:
                total += 1
                open.append((name(event.data.sequence_start.anchor), 1))
            case YAML_MAPPING_START_EVENT:
                total += 1
                open.append((name(event.data.mapping_start.anchor), 1))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let collection = open.popLast() else { return nil }
                close(collection.size, anchor: collection.anchor)
            default:
                break
            }
            if total > limit { return Int(event.start_mark.line) + 1 }
        }
    }
}
