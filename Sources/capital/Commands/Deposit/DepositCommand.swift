import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capitalisation: ExpressibleByArgument {}

extension Capital {
    struct DepositCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deposit", abstract: "Deposits: interest, capitalisation and payout at maturity in the forecast.",
            subcommands: [Add.self, List.self, Show.self, RemoveTerms<DepositTerms>.self])
    }
}

extension Capital.DepositCommand {
    struct Add: ParsableCommand, SpellsFields {
        static let fieldNames = ["account": "NAME"]

        static let configuration = CommandConfiguration(
            "add", "Add a deposit: its interest and payout join the forecast.",
            about: """
                The deposit goes by NAME, a deposit account (created if there is none); put money in with \
                `capital transfer`. Interest accrues daily on the end-of-day balance (actual/actual) and is credited \
                monthly, quarterly or at maturity; at maturity the balance moves to --payout. Until then it counts at \
                ladder level 5 when it matures within a year, else 6.
                """,
            example:
                "capital deposit add \"Sber deposit\" --rate 16 --capitalisation monthly --opened 2025-01-10 --maturity 2025-07-10 --payout \"Sber Debit\""
        )

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The deposit's name: its deposit account.") var name: String
        @Option(parsing: .unconditional, help: ArgumentHelp("The annual interest rate in percent.", valueName: "percent")) var rate: String
        @Option(help: ArgumentHelp("monthly, quarterly or at-maturity.", valueName: "period")) var capitalisation: Capitalisation = .monthly
        @Option(help: ArgumentHelp("The day the deposit was opened, YYYY-MM-DD.", valueName: "date")) var opened: String
        @Option(help: ArgumentHelp("The day it matures and pays out (none: an open-ended savings account).", valueName: "date")) var maturity: String?
        @Option(help: ArgumentHelp("Where the balance goes at maturity.", valueName: "account"), completion: .accountNames) var payout: String?
        @Option(help: ArgumentHelp("The income category of the interest (default Interest).", valueName: "category"), completion: .categoryNames)
        var category: String?

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            var input = DepositInput(account: name, rate: rate, opened: try parseDay(opened, field: "--opened"))
            input.capitalisation = capitalisation
            input.maturity = try maturity.map { try parseDay($0, field: "--maturity") }
            input.payout = payout
            input.category = category
            // Credits before today happened before capital knew the deposit; from today they are
            // expected, open until posted or settled.
            input.handledThrough = try global.todayDay().advanced(by: -1)
            let deposit = try store.addDeposit(input)
            try output.said("Added deposit '\(name)' at \(deposit.terms.rate)\(deposit.terms.maturity.map { ", maturing \($0)" } ?? "").") {
                Report.deposit(try global.answer { try $0.depositStatus(deposit, today: $1) })
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List deposits with their balance, rate, maturity and ladder level.", example: "capital deposit list")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            var section = Section(
                name: "deposits",
                columns: [
                    Column("name", "Deposit"), Column("balance", "Balance", numeric: true), Column("rate", "Rate"),
                    Column("capitalisation", "Capitalised"),
                    Column("maturity", "Matures"), Column("level", "Level", numeric: true),
                ])
            for deposit in try store.deposits() {
                let view = try kit { try store.depositStatus(deposit, today: try global.todayDay()) }
                section.rows.append([
                    .text(view.account.name), view.money(view.balance), .rate(deposit.terms.rate),
                    .text(deposit.terms.capitalisation.rawValue),
                    deposit.terms.maturity.map { .day($0) } ?? .none, .int(view.level),
                ])
            }
            try global.print(Report([section]))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            "show", "Show a deposit: balance today, the next interest, what it pays out at maturity.",
            example: "capital deposit show \"Sber deposit\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The deposit's name (its account) or id prefix.", completion: .termsNames(.deposit)) var deposit: String

        func run() throws {
            try global.print(Report.deposit(try global.answer { try $0.depositStatus(deposit, today: $1) }))
        }
    }
}
