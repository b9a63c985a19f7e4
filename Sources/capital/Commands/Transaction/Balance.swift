import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalStore

extension Capital {
    struct Balance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "balance",
            abstract: "End-of-day balances per account and per group.",
            discussion: """
                Amounts are signed as in double entry: what you have is positive, what you owe (loans, \
                card debt) is negative. Categories and hidden accounts are left out unless --all.
                Example: capital -f samples/household.yaml balance --on 2025-03-31 --format json
                """)

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("Balances at the end of this day (YYYY-MM-DD, or YYYY-MM for its last day); default today.", valueName: "date"))
        var on: String?
        @Flag(help: "Include categories (income and expense totals) and hidden accounts.") var all = false

        func run() throws {
            let day = try on.map { try parseDay($0, field: "--on", monthAs: .endOfMonth) } ?? global.todayDay()
            let store = try global.ledgerStore(writing: false)
            // Posted transactions to the day; instruments (loan balances, capitalised interest, value
            // changes) as they stand today: a balance is not a forecast.
            let ledger = try global.instrumentLedger(store, through: try global.todayDay())
            let totals = try balances(ledger, on: day)
            var accounts = Section(
                name: "accounts", title: "Balances on \(day)",
                columns: [
                    Column("account", "Account"), Column("kind", "Kind"), Column("balance", "Balance", numeric: true), Column("currency", "Cur"),
                ])
            for account in ledger.accounts where all || (!account.hidden && account.kind.isBalanceSheet) {
                let keys = totals.keys.filter { $0.accountID == account.id }.sorted { $0.currency.code < $1.currency.code }
                let currencies = keys.isEmpty ? [account.currency] : keys.map(\.currency)
                for currency in currencies {
                    let minor = totals[BalanceKey(accountID: account.id, currency: currency)] ?? 0
                    accounts.rows.append([
                        .label(Label(account)), .text(account.kind.rawValue), .money(Money(minor: minor, currency: currency)), .text(currency.code),
                    ])
                }
            }
            var groups = Section(
                name: "groups", title: "Groups",
                columns: [Column("group", "Group"), Column("type", "Type"), Column("balance", "Balance", numeric: true), Column("currency", "Cur")])
            for group in ledger.groups {
                for (currency, minor) in try groupTotals(group, ledger, totals) {
                    groups.rows.append([
                        .text(group.name), .text(group.type.rawValue), .money(Money(minor: minor, currency: currency)), .text(currency.code),
                    ])
                }
            }
            try global.print(Report([accounts, groups], keyed: true))
        }
    }
}
