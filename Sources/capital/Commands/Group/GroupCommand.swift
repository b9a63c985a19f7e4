import ArgumentParser
import CapitalCore
import CapitalKit
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
            commandName: "add",
            abstract: "Add a group.",
            discussion: "Example: capital group add \"Everyday money\" --type cash-flow --account \"VTB Debit\" --account Cash")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group's name (unique).") var name: String
        @Option(help: ArgumentHelp("cash-flow or profit-and-loss.", valueName: "type")) var type: GroupType
        @Option(help: ArgumentHelp("An account to put in it (repeatable).", valueName: "account")) var account: [String] = []

        func run() throws {
            let group = try global.ledgerStore(writing: true).addGroup(name: name, type: type, accounts: account)
            Console.current.line(
                "Added \(group.type.rawValue) group '\(group.name)' (\(Store.shortID(group.id))) with \(group.accountIDs.count) accounts.")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List groups with their accounts.", discussion: "Example: capital group list")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let ledger = try store.snapshot()
            let labels = AccountLabels(ledger.accounts)
            let known = Set(ledger.accounts.map(\.id))
            var section = Section(
                name: "groups", columns: [Column("id", "ID"), Column("name", "Name"), Column("type", "Type"), Column("accounts", "Accounts")])
            for group in ledger.groups {
                section.rows.append([
                    .id(group.id), .text(group.name), .text(group.type.rawValue), .labels(group.accountIDs.filter(known.contains).map { labels[$0] }),
                ])
            }
            try global.print(Report([section]))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a group's accounts with today's balances and their total.", discussion: "Example: capital group show \"Everyday money\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Group name or id prefix.") var group: String

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let found = try store.group(group)
            let ledger = try store.snapshot()
            let totals = try balances(ledger, on: try global.todayDay())
            var section = Section(
                name: "accounts", title: "\(found.name) (\(found.type.rawValue))",
                columns: [Column("name", "Account"), Column("kind", "Kind"), Column("balance", "Balance", numeric: true)])
            for id in found.accountIDs {
                guard let account = ledger.accounts.first(where: { $0.id == id }) else { continue }
                section.rows.append([
                    .label(Label(account)), .text(account.kind.rawValue),
                    .money(Money(minor: totals[BalanceKey(accountID: id, currency: account.currency)] ?? 0, currency: account.currency)),
                ])
            }
            var total = Section(
                name: "totals", title: "Total", columns: [Column("currency", "Currency"), Column("balance", "Balance", numeric: true)])
            for (currency, minor) in try groupTotals(found, ledger, totals) {
                total.rows.append([.text(currency.code), .money(Money(minor: minor, currency: currency))])
            }
            var sections = [section, total]
            let ahead = try outlook(global, store: store, accountIDs: found.accountIDs)
            if !ahead.isEmpty {
                var future = Section(name: "outlook", title: "Ahead (\(ledger.currency.code) accounts, expected amounts)", columns: ahead.map(\.0))
                future.rows = [ahead.map(\.1)]
                sections.append(future)
            }
            try global.print(Report(sections))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a group (its accounts stay).", discussion: "Example: capital group rm \"Everyday money\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Group name or id prefix.") var group: String

        func run() throws {
            let removed = try global.ledgerStore(writing: true).removeGroup(group)
            Console.current.line("Removed group '\(removed.name)'.")
        }
    }

    struct AddAccount: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-account", abstract: "Put accounts into a group.",
            discussion: "Example: capital group add-account \"Everyday money\" Cash")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Group name or id prefix.") var group: String
        @Argument(help: "Accounts to add.") var accounts: [String]

        func validate() throws {
            if accounts.isEmpty { throw ValidationError("give at least one account") }
        }

        func run() throws {
            try global.ledgerStore(writing: true).addToGroup(group, accounts: accounts)
            Console.current.line("Added \(accounts.count) account\(accounts.count == 1 ? "" : "s") to group '\(group)'.")
        }
    }

    struct RemoveAccount: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-account", abstract: "Take accounts out of a group.",
            discussion: "Example: capital group remove-account \"Everyday money\" Cash")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Group name or id prefix.") var group: String
        @Argument(help: "Accounts to take out.") var accounts: [String]

        func validate() throws {
            if accounts.isEmpty { throw ValidationError("give at least one account") }
        }

        func run() throws {
            try global.ledgerStore(writing: true).removeFromGroup(group, accounts: accounts)
            Console.current.line("Removed \(accounts.count) account\(accounts.count == 1 ? "" : "s") from group '\(group)'.")
        }
    }
}

/// A group's balance per currency: the sum of its accounts' balances.
func groupTotals(_ group: AccountGroup, _ ledger: Ledger, _ totals: [BalanceKey: Int64]) throws -> [(Currency, Int64)] {
    var sums: [(Currency, Int64)] = []
    for (key, minor) in totals where group.accountIDs.contains(key.accountID) {
        if let index = sums.firstIndex(where: { $0.0 == key.currency }) {
            let (sum, overflow) = sums[index].1.addingReportingOverflow(minor)
            if overflow { throw CLIError("group '\(group.name)': its balance overflows") }
            sums[index].1 = sum
        } else {
            sums.append((key.currency, minor))
        }
    }
    if sums.isEmpty { sums.append((ledger.currency, 0)) }
    return sums.sorted { $0.0.code < $1.0.code }
}
