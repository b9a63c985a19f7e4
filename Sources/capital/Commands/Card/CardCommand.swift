import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension CardGrace: ExpressibleByArgument {}

extension Capital {
    struct CardCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "card", abstract: "Credit cards: statement cycles, paybacks and interest in the forecast.",
            subcommands: [Add.self, List.self, Show.self, RemoveTerms<CardTerms>.self])
    }
}

extension Capital.CardCommand {
    struct Add: ParsableCommand, SpellsFields {
        static let fieldNames = ["account": "NAME"]

        static let configuration = CommandConfiguration(
            "add", "Add a credit card: its statements come due and are paid back in the forecast.",
            about: """
                The card goes by NAME, a credit-card account (created if there is none). At each statement the debt \
                becomes due; on the due day the payback is a transfer from --pay-from: the full statement balance, a \
                minimum (--minimum PERCENT, at least --minimum-floor), or a fixed amount. A balance carried past the due \
                day pays --rate a year (actual/365), charged at the next statement; with --grace lose, an unpaid \
                statement also pays interest from its statement day. A statement day of 29–31 falls on the last day of \
                shorter months. Level 3 counts the credit left (the card's floor is minus its limit unless you set one).
                """,
            example: "capital card add \"Tinkoff Platinum\" --limit 300000 --statement-day 5 --due-after 20 --pay-from \"Sber Debit\"",
            "capital card add Alfa --limit 150000 --statement-day 31 --due-day 20 --payback minimum --minimum 5 --minimum-floor 1000 --rate 34.9 --pay-from \"Sber Debit\""
        )

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The card's name: its credit-card account.") var name: String
        @Option(parsing: .unconditional, help: ArgumentHelp("The credit limit.", valueName: "amount")) var limit: String
        @Option(parsing: .unconditional, help: ArgumentHelp("The day of the month statements are issued, 1 to 31.", valueName: "day"))
        var statementDay: Int
        @Option(parsing: .unconditional, help: ArgumentHelp("The payment due day of the month after the statement, 1 to 31.", valueName: "day"))
        var dueDay: Int?
        @Option(parsing: .unconditional, help: ArgumentHelp("Or: the payment is due this many days after the statement, 1 to 27.", valueName: "days"))
        var dueAfter: Int?
        @Option(help: ArgumentHelp("full, minimum or fixed.", valueName: "policy")) var payback = "full"
        @Option(parsing: .unconditional, help: ArgumentHelp("The minimum payback's percentage of the statement.", valueName: "percent")) var minimum:
            String?
        @Option(parsing: .unconditional, help: ArgumentHelp("The least a minimum payback pays.", valueName: "amount")) var minimumFloor: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("The amount of a fixed payback.", valueName: "amount")) var fixed: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("Annual interest on the carried balance in percent (default 0).", valueName: "percent"))
        var rate = "0"
        @Option(
            help: ArgumentHelp("keep (interest only on what is carried) or lose (an unpaid statement pays interest from its day).", valueName: "rule")
        )
        var grace: CardGrace = .keep
        @Option(help: ArgumentHelp("The account paybacks come from (required).", valueName: "account"), completion: .accountNames) var payFrom:
            String?
        @Option(
            help: ArgumentHelp("The expense category of the interest (default Card interest).", valueName: "category"), completion: .categoryNames)
        var category: String?

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            var input = CardInput(account: name, limit: limit, statementDay: statementDay)
            input.payFrom = payFrom
            input.category = category
            input.dueDay = dueDay
            input.dueAfter = dueAfter
            input.payback = payback
            input.minimum = minimum
            input.minimumFloor = minimumFloor
            input.fixed = fixed
            input.rate = rate
            input.grace = grace
            let card = try store.addCard(input)
            let view = try kit { try store.cardStatuses(today: try global.todayDay(), of: [card])[0] }
            try output.said("Added card '\(name)': next statement \(view.nextStatement), due \(card.terms.dueDay(forStatement: view.nextStatement)).")
            {
                Report.card(view)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List cards with their debt, credit left and the next payback.", example: "capital card list")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var on: OnOption

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            var section = Section(
                name: "cards",
                columns: [
                    Column("name", "Card"), Column("debt", "Debt", numeric: true), Column("available", "Credit left", numeric: true),
                    Column("limit", "Limit", numeric: true), Column("dueDay", "Due on"), Column("amountDue", "Amount due", numeric: true),
                    Column("nextStatement", "Next statement"), Column("overdue", "Overdue", numeric: true),
                ])
            for view in try kit({ try store.cardStatuses(today: try on.day(global)) }) {
                let card = view.card
                section.rows.append([
                    .text(view.account.name), view.money(view.debt), view.money(view.available), view.money(card.terms.limit),
                    view.open.map { .day($0.due) } ?? .none, view.money(view.open?.payback ?? 0), .day(view.nextStatement), view.money(view.overdue),
                ])
            }
            try global.print(Report([section]))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            "show", "Show a card: current debt, credit left, the last statement, amount due and the next statement.",
            example: "capital card show \"Tinkoff Platinum\" --format json")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The card's name (its account) or id prefix.", completion: .termsNames(.card)) var card: String
        @OptionGroup var on: OnOption

        func run() throws {
            let asked = try on.asked()
            try global.print(Report.card(try global.answer { try $0.cardStatus(card, today: asked ?? $1) }, on: asked))
        }
    }
}
