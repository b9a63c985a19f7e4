import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital.SyncCommand {
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conflicts",
            abstract: "List the values that lost to another device's concurrent edit; resolve one by keeping yours or theirs.",
            discussion: CommandConfiguration.discussion(
                """
                A conflict is two devices changing the same part of a record (an account's name, a schedule's amount, \
                a transaction's postings) without seeing each other's change: the later one wins everywhere, and the \
                other is listed here until resolved.
                """, ["capital sync conflicts", "capital sync conflicts resolve 1a2b3c4d --keep mine"]),
            subcommands: [List.self, Resolve.self], defaultSubcommand: List.self)
    }
}

extension Capital.SyncCommand.Conflicts {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration("list", "List the open conflicts (the default).", example: "capital sync conflicts list")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let format = try global.outputFormat()
            let store = try global.store(writing: false)
            let device = try store.syncDeviceID()
            let conflicts = try store.syncConflicts()
            var section = Section(
                name: "conflicts",
                columns: [
                    Column("id", "ID"), Column("at", "Seen"), Column("what", "What"), Column("entity", "Kind", tableHidden: true),
                    Column("record", "Record", tableHidden: true), Column("name", "Name", tableHidden: true),
                    Column("group", "Part", tableHidden: true), Column("kept", "Kept", tableHidden: true),
                    Column("keptBy", "By", tableHidden: true), Column("lost", "Lost", tableHidden: true), Column("lostBy", "By", tableHidden: true),
                ])
            let peers = try store.syncPeers()
            func by(_ stamp: SyncStamp) -> String {
                stamp.device == device ? "this device" : (peers[stamp.device].map { "\($0), " } ?? "") + "device " + stamp.device.prefix(8)
            }
            let words = try ConflictWords(store: store)
            for conflict in conflicts {
                let name = try store.syncRecordName(entity: conflict.entity, record: conflict.record)
                section.rows.append([
                    .text(String(conflict.id.prefix(format == .table ? 8 : 36))), .text(conflict.at), .text(try words.sentence(conflict)),
                    .text(conflict.entity), .text(conflict.record), name.map(Cell.text) ?? .absent(""), .text(conflict.group),
                    .text(conflict.kept.value), .text(by(conflict.kept.stamp)), .text(conflict.lost.value), .text(by(conflict.lost.stamp)),
                ])
            }
            if format == .table && conflicts.isEmpty {
                Console.current.line("No open conflicts.")
                return
            }
            try global.print(Report([section]))
        }
    }

    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            "resolve", "Keep your value or theirs; a value that lost is written again as a new change, sent at the next sync.",
            example: "capital sync conflicts resolve 1a2b3c4d --keep mine")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The conflict's id (or its first characters, as the listing shows them).") var id: String
        @Option(help: "mine (this device's value) or theirs.") var keep: String

        func run() throws {
            guard let choice = ConflictChoice(rawValue: keep) else { throw CLIError.invalid("--keep", keep, "mine or theirs") }
            let store = try global.store(writing: true)
            let matches = try store.syncConflicts().filter { $0.id.hasPrefix(id.lowercased()) }
            guard let conflict = matches.first, !id.isEmpty else {
                throw CLIError.refused("conflict", id, "no open conflict has this id; capital sync conflicts lists them")
            }
            guard matches.count == 1 else { throw CLIError.invalid("conflict", id, "matches \(matches.count) conflicts; give more of the id") }
            switch try store.resolveConflict(conflict.id, keep: choice) {
            case .alreadyHeld: Console.current.line("Resolved: the ledger holds that value already.")
            case .rewritten: Console.current.line("Resolved: the value is written again and goes to the other devices at the next sync.")
            }
        }
    }
}
