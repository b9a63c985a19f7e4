import ArgumentParser
import CapitalCore
import CapitalStore
import Foundation

/// Shell completion of the names a ledger holds (`capital --generate-completion-script zsh`):
/// accounts, categories, schedules and groups, read from the ledger the words typed so far point
/// at (`--db`, `-f`, else `$CAPITAL_DB` and the default path). Nothing is printed when there is
/// no ledger to read.
extension CompletionKind {
    /// Balance-sheet accounts and categories alike: what `--from`, `--to`, `--account` take.
    static var accountNames: CompletionKind { .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.accounts().map(\.name) } } }
    /// Income and expense categories.
    static var categoryNames: CompletionKind {
        .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.accounts().filter(\.kind.isCategory).map(\.name) } }
    }
    static var scheduleNames: CompletionKind {
        .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.schedules().map(\.name) } }
    }
    static var groupNames: CompletionKind { .custom { words, _, prefix in LedgerNames.complete(words, prefix) { try $0.groups().map(\.name) } } }
}

enum LedgerNames {
    /// The names `read` gives for the ledger `words` point at, those starting with `prefix`
    /// (case-insensitive), sorted; none when the ledger cannot be read.
    static func complete(_ words: [String], _ prefix: String, _ read: (Store) throws -> [String]) -> [String] {
        func value(after options: Set<String>) -> String? {
            guard let index = words.lastIndex(where: options.contains), index + 1 < words.count else { return nil }
            return words[index + 1]
        }
        var global = GlobalOptions()
        global.file = value(after: ["-f", "--file"])
        global.db = value(after: ["--db"])
        guard let store = try? global.ledgerStore(writing: false), let names = try? read(store) else { return [] }
        let lowered = prefix.lowercased()
        return names.filter { $0.lowercased().hasPrefix(lowered) }.sorted()
    }
}
