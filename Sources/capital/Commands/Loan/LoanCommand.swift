import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

extension LoanMethod: ExpressibleByArgument {}
extension DayCount: ExpressibleByArgument {}
extension Rounding: ExpressibleByArgument {}
extension PrepaymentEffect: ExpressibleByArgument {}

extension Capital {
    struct LoanCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "loan", abstract: "Loans: stored loans in the forecast, amortisation schedules and early repayment.",
            subcommands: [Add.self, List.self, Show.self, Prepay.self, RemoveTerms<LoanTerms>.self, Schedule.self])
    }
}

/// The terms of a loan as options, shared by the loan commands.
struct LoanTermsOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("The amount lent, e.g. 5000000 or 5000000.00.", valueName: "amount")) var principal: String
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The annual interest rate in percent, e.g. 12 or 7.75 (at most four decimals).", valueName: "percent"))
    var rate: String
    @Option(parsing: .unconditional, help: ArgumentHelp("The term in months: the number of monthly payments.", valueName: "months")) var term: Int
    @Option(help: ArgumentHelp("The day the money is lent, YYYY-MM-DD; interest runs from here.", valueName: "date")) var start: String
    @Option(
        help: ArgumentHelp(
            "The first payment's day (default one month after --start); later ones fall on the same day of the month.", valueName: "date"))
    var firstPayment: String?
    @Option(help: ArgumentHelp("annuity (equal payments) or linear (equal principal parts).", valueName: "method")) var method: LoanMethod = .annuity
    @Option(help: ArgumentHelp("30/360, actual/365 or actual/actual.", valueName: "convention")) var dayCount: DayCount = .thirty360
    @Option(help: ArgumentHelp("half-up or half-even rounding of each amount to minor units.", valueName: "rule")) var rounding: Rounding = .halfUp
    @Option(help: ArgumentHelp("Working-day calendar for payment days: RU, US or none.", valueName: "name")) var calendar = "none"
    @Option(
        help: ArgumentHelp(
            "How a payment due on a day off moves: none, following, preceding, modified-following or modified-preceding.", valueName: "adjustment"))
    var adjust: BusinessDayAdjustment = .none

    /// The terms as a store input for `account`, paid from `payFrom`.
    func input(account: String = "", payFrom: String = "") throws -> LoanInput {
        var input = LoanInput(
            account: account, payFrom: payFrom, principal: principal, rate: rate, term: term, start: try parseDay(start, field: "--start"))
        input.firstPayment = try firstPayment.map { try parseDay($0, field: "--first-payment") }
        input.method = method
        input.dayCount = dayCount
        input.rounding = rounding
        input.calendar = calendar
        input.adjustment = adjust
        return input
    }

    /// The loan these options describe, in `currency`.
    func loan(currency: Currency, prepayments: [LoanPrepayment] = []) throws -> Loan {
        var loan = try Store.loanTerms(try input(), currency: currency)
        loan.prepayments = prepayments
        return loan
    }
}

/// A core loan error about `--prepay` as a one-line CLI error with amounts in `currency`.
func loanError(_ error: LoanError, currency: Currency) -> CLIError {
    func money(_ minor: Int64) -> String { Money(minor: minor, currency: currency).formatted() }
    switch error {
    case .prepaymentTooLarge(let day, let amount, let remaining):
        return CLIError(
            "--prepay '\(money(amount))@\(day)': not less than the \(money(remaining)) left on \(day); pay the loan off in full instead (full@\(day))",
            exitCode: 64)
    case .prepaymentBeforeStart(let day, let start):
        return CLIError("--prepay '\(day)': before the loan starts on \(start)", exitCode: 64)
    case .prepaymentAfterPayoff(let day, let payoff):
        return CLIError("--prepay '\(day)': after the loan is paid off on \(payoff)", exitCode: 64)
    case .invalid, .invalidRate, .overflow:
        return CLIError("loan: \(spelled(error))")
    }
}

/// `AMOUNT@DATE` or `full@DATE`: an extra repayment from the command line.
func parsePrepayment(_ text: String, currency: Currency, effect: PrepaymentEffect) throws -> LoanPrepayment {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2 else { throw CLIError.invalid("--prepay", text, "expected AMOUNT@YYYY-MM-DD or full@YYYY-MM-DD") }
    let day = try parseDay(String(parts[1]), field: "--prepay")
    if parts[0].lowercased() == "full" { return LoanPrepayment(day: day, amount: 0, effect: effect, full: true) }
    let amount = try parseMoney(String(parts[0]), field: "--prepay", currency: currency)
    guard amount.minor > 0 else { throw CLIError.invalid("--prepay", text, "the amount must be more than 0") }
    return LoanPrepayment(day: day, amount: amount.minor, effect: effect)
}

extension Capital.LoanCommand {
    struct Schedule: ParsableCommand {
        static let configuration = CommandConfiguration(
            "schedule", "Print a loan's amortisation schedule, without a database.",
            about: """
                Every payment with its interest and principal and the balance left; the last payment absorbs the \
                rounding so the balance closes at exactly 0. --prepay AMOUNT@DATE (repeatable) adds an early repayment, \
                full@DATE pays everything off that day; --reduce says whether the payment or the term shrinks, and the \
                interest saved is shown. Amounts are in --currency (default: your database's currency, else RUB).
                """,
            example: "capital loan schedule --principal 5000000 --rate 12 --term 240 --start 2025-02-15",
            "capital loan schedule --principal 5000000 --rate 12 --term 240 --start 2025-02-15 --prepay 1000000@2026-02-15 --reduce payment --format json"
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var terms: LoanTermsOptions
        @Option(
            parsing: .unconditionalSingleValue,
            help: ArgumentHelp("An early repayment, AMOUNT@YYYY-MM-DD or full@YYYY-MM-DD (repeatable).", valueName: "amount@date"))
        var prepay: [String] = []
        @Option(help: ArgumentHelp("What prepayments shorten: term (the payment stays) or payment (the term stays).", valueName: "term|payment"))
        var reduce: PrepaymentEffect = .term
        @Option(help: ArgumentHelp("The currency of the amounts (default: the database's, else RUB).", valueName: "code")) var currency: String?

        func run() throws {
            let currency = try scheduleCurrency()
            let prepayments = try prepay.map { try parsePrepayment($0, currency: currency, effect: reduce) }
            let loan = try terms.loan(currency: currency, prepayments: prepayments)
            let calendar = try shippedCalendar(terms.calendar)
            let plan: LoanPlan
            do { plan = try LoanPlan(loan, calendar: calendar) } catch { throw loanError(error, currency: currency) }
            if try global.outputFormat() == .table { Console.current.line(Report.loanHeadline(loan, plan, currency: currency, global.renderOptions)) }
            try global.print(
                Report.loanSchedule(
                    plan.schedule, currency: currency,
                    extra: plan.interestSaved.map { [("interestSaved", Report.jsonValue(.money(Money(minor: $0, currency: currency))))] } ?? []))
        }

        func scheduleCurrency() throws -> Currency {
            if let currency {
                do { return try Currency(currency) } catch { throw CLIError.invalid("--currency", currency, "not an ISO 4217 currency code") }
            }
            if global.file == nil, FileManager.default.fileExists(atPath: global.databasePath),
                let store = try? Store.open(path: global.databasePath), let code = try? store.currency()
            {
                return code
            }
            return try! Currency("RUB")
        }
    }
}
