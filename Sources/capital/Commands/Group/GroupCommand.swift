import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital {
    struct GroupCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "group", abstract: "Account groups: cash-flow groups sum balances, profit-and-loss groups sum flows.",
            subcommands: [Add.self, List.self, Show.self, Remove.self, AddAccount.self, RemoveAccount.self])
    }
}

extension Capital.GroupCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            "add", "Add a group.", example: "capital group add \"Everyday money\" --type cash-flow --account \"VTB Debit\" --account Cash")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group's name (unique).") var name: String
        @Option(help: ArgumentHelp("cash-flow or profit-and-loss.", valueName: "type")) var type: GroupType
        @Option(help: ArgumentHelp("An account to put in it (repeatable).", valueName: "account"), completion: .accountNames) var account: [String] =
            []

        func run() throws {
            let output = try global.writeOutput()
            let group = try global.ledgerStore(writing: true).addGroup(name: name, type: type, accounts: account)
            try output.said(
                "Added \(group.type.rawValue) group '\(group.name)' (\(Store.shortID(group.id))) with \(group.accountIDs.count.counted("account"))."
            ) { try global.groupRecord(group.id) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration("list", "List groups with their accounts.", example: "capital group list")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let accounts = try store.accounts(includeHidden: true)
            let labels = AccountLabels(accounts)
            let known = Set(accounts.map(\.id))
            var section = Section(
                name: "groups", columns: [Column("id", "ID"), Column("name", "Name"), Column("type", "Type"), Column("accounts", "Accounts")])
            for group in try store.groups() {
                section.rows.append([
                    .id(group.id), .text(group.name), .text(group.type.rawValue), .labels(group.accountIDs.filter(known.contains).map { labels[$0] }),
                ])
            }
            try global.print(Report([section]))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            "show", "Show a group's accounts with today's balances and their total.", example: "capital group show \"Everyday money\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Group name or id prefix.", completion: .groupNames) var group: String
        @OptionGroup var on: OnOption
        @OptionGroup var overdue: OverdueOption

        func run() throws {
            let ignoring = try overdue.ignoresOverdue()
            let day = try on.asked()
            let detail = try global.answer { try $0.groupDetail(group, today: $1, on: day, ignoringOverdue: ignoring) }
            try global.print(Report.group(detail), counting: detail.outlook?.overdue)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration("rm", "Remove a group (its accounts stay).", example: "capital group rm \"Everyday money\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Group name or id prefix.", completion: .groupNames) var group: String

        func run() throws {
            let output = try global.writeOutput()
            let removed = try global.ledgerStore(writing: true).removeGroup(group)
            try output.said("Removed group '\(removed.name)'.") { Report.removed(removed.id, [("name", removed.name)]) }
        }
    }

    struct AddAccount: ParsableCommand {
        static let configuration = CommandConfiguration(
            "add-account", "Put accounts into a group.", example: "capital group add-account \"Everyday money\" Cash")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var members: GroupMembers

        func run() throws {
            let output = try global.writeOutput()
            try global.ledgerStore(writing: true).addToGroup(members.group, accounts: members.accounts)
            try output.said("Added \(members.counted) to group '\(members.group)'.") { try global.groupRecord(members.group) }
        }
    }

    struct RemoveAccount: ParsableCommand {
        static let configuration = CommandConfiguration(
            "remove-account", "Take accounts out of a group.", example: "capital group remove-account \"Everyday money\" Cash")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var members: GroupMembers

        func run() throws {
            let output = try global.writeOutput()
            try global.ledgerStore(writing: true).removeFromGroup(members.group, accounts: members.accounts)
            try output.said("Removed \(members.counted) from group '\(members.group)'.") { try global.groupRecord(members.group) }
        }
    }
}

/// A group and the accounts to put in or take out of it.
struct GroupMembers: ParsableArguments {
    @Argument(help: "Group name or id prefix.", completion: .groupNames) var group: String
    @Argument(help: "The accounts.", completion: .accountNames) var accounts: [String]

    func validate() throws {
        if accounts.isEmpty { throw ValidationError("give at least one account") }
    }

    /// "1 account", "3 accounts".
    var counted: String { accounts.count.counted("account") }
}
