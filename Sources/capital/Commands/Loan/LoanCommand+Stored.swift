import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension Capital.LoanCommand {
    struct Add: ParsableCommand, SpellsFields {
        static let fieldNames = ["account": "NAME"]

        static let configuration = CommandConfiguration(
            "add", "Add a loan: its payments join the forecast.",
            about: """
                The loan goes by NAME, a loan account (created if there is none). Each payment is one transaction \
                from --pay-from: the interest to --category (default Loan interest), the principal to the loan account. \
                The account's balance follows the schedule: the balance after the payments before today. A loan \
                starting after today is paid out on its start day into --to (default: --pay-from).
                """,
            example:
                "capital loan add Mortgage --principal 6000000 --rate 9.5 --term 240 --start 2021-03-10 --pay-from \"Sber Debit\" --day-count actual/actual"
        )

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The loan's name: its loan account.") var name: String
        @OptionGroup var terms: LoanTermsOptions
        @Option(help: ArgumentHelp("The account the payments come from.", valueName: "account"), completion: .accountNames) var payFrom: String
        @Option(
            help: ArgumentHelp("The expense category of the interest (default Loan interest).", valueName: "category"), completion: .categoryNames)
        var category: String?
        @Option(
            help: ArgumentHelp("Where the money lent arrives, for a loan starting after today (default --pay-from).", valueName: "account"),
            completion: .accountNames)
        var to: String?
        @Option(help: ArgumentHelp("An asset the loan is secured on, shown beside the debt.", valueName: "account"), completion: .accountNames)
        var collateral: String?

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            var input = try terms.input(account: name, payFrom: payFrom)
            input.category = category
            input.disburseTo = to
            input.collateral = collateral
            // Payments before today were made before capital knew the loan; from today they are
            // expected, open until posted or settled.
            let today = try global.todayDay()
            input.handledThrough = today.advanced(by: -1)
            let loan = try store.addLoan(input)
            let view = try kit { try store.loanStanding(loan, today: today) }
            let shown = global.shown(Money(minor: view.schedule.payment, currency: view.account.currency))
            try output.said("Added loan '\(name)': payment \(shown), paid off \(view.schedule.payoff).") {
                Report.loan(try global.answer { try $0.loanDetail(name, today: $1) }, schedule: false)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List loans with their balance today, next payment and payoff.", example: "capital loan list --format json")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var on: OnOption

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let today = try global.todayDay()
            let day = try on.asked()
            var section = Section(
                name: "loans",
                columns: [
                    Column("name", "Loan"), Column("balance", "Balance", numeric: true), Column("rate", "Rate"), Column("nextDay", "Next payment"),
                    Column("nextPayment", "Amount", numeric: true), Column("payoff", "Paid off"),
                    Column("interestLeft", "Interest left", numeric: true),
                ])
            for view in try kit({ try store.loanStandings(today: today, on: day) }) {
                let loan = view.loan
                section.rows.append([
                    .text(view.account.name), view.money(view.status.balance), .rate(loan.terms.rate),
                    view.status.next.map { .day($0.day) } ?? .none,
                    view.status.next.map { view.money($0.payment) } ?? .none, .day(view.status.payoff), view.money(view.status.interestLeft),
                ])
            }
            try global.print(Report([section]))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            "show", "Show a loan: balance today, the next payment and its split, payoff, interest left.",
            example: "capital loan show Mortgage --schedule")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The loan's name (its account) or id prefix.", completion: .termsNames(.loan)) var loan: String
        @Flag(help: "Also list the payments from today on.") var schedule = false
        @OptionGroup var on: OnOption

        func run() throws {
            let day = try on.asked()
            try global.print(Report.loan(try global.answer { try $0.loanDetail(loan, today: $1, on: day) }, schedule: schedule, on: day))
        }
    }

    struct Prepay: ParsableCommand, SpellsFields {
        static let fieldNames = ["amount": "AMOUNT"]

        static let configuration = CommandConfiguration(
            "prepay", "Repay a loan early: once, in full, or every month; --dry-run shows what it would save.",
            about: """
                The schedule after --on is recomputed: --reduce term keeps the payment and ends the loan sooner, \
                --reduce payment keeps the term and lowers each payment. --every RULE repeats the extra payment \
                (e.g. "monthly on 10") from --on until --until or the payoff. An amount not less than what is left is \
                refused: pay the loan off with --full.
                """,
            example: "capital loan prepay Mortgage 500000 --on 2025-09-10 --reduce payment --dry-run",
            "capital loan prepay \"Car loan\" 5000 --on 2025-07-05 --every \"monthly on 5\"", "capital loan prepay VTB --full --on 2025-12-01")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The loan's name (its account) or id prefix.", completion: .termsNames(.loan)) var loan: String
        @Argument(help: "The principal to repay (leave out with --full).") var amount: String?
        @Option(help: ArgumentHelp("The day of the repayment (or of the first one with --every), YYYY-MM-DD.", valueName: "date")) var on: String
        @Option(help: ArgumentHelp("What shrinks: term (the payment stays) or payment (the term stays).", valueName: "term|payment"))
        var reduce: PrepaymentEffect = .term
        @Flag(help: "Pay the whole loan off that day, with the interest accrued since the last payment.") var full = false
        @Option(help: ArgumentHelp("Repeat the extra payment by this rule (readable or RRULE).", valueName: "rule")) var every: String?
        @Option(help: ArgumentHelp("The last day of a recurring extra payment (default: the payoff).", valueName: "date")) var until: String?
        @Flag(help: "Print the new schedule and the interest saved without saving anything.") var dryRun = false

        func run() throws {
            let store = try global.ledgerStore(writing: !dryRun)
            var input = PrepaymentInput(day: try parseDay(on, field: "--on"), amount: amount)
            input.full = full
            input.effect = reduce
            input.every = every
            input.until = try until.map { try parseDay($0, field: "--until") }
            let outcome = try kit { try store.prepay(loan, input, dryRun: dryRun, today: try global.todayDay()) }
            var report = Report.loanSchedule(
                outcome.scheduleAfter, currency: outcome.after.account.currency,
                extra: [("interestSaved", Report.jsonValue(outcome.after.money(outcome.interestSaved))), ("saved", .bool(!dryRun))])
            if try global.outputFormat() == .table {
                Console.current.line(Report.prepaymentHeadline(outcome, dryRun: dryRun, global.renderOptions))
                if !dryRun { return }
            } else if !dryRun {
                report.sections = []
            }
            try global.print(report)
        }
    }
}
