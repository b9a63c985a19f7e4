import CapitalCore
import CapitalStore

/// A stored loan seen from a day: its account, its amortisation schedule and where it stands.
public struct LoanStanding: Sendable {
    public let loan: LedgerLoan
    public let account: Account
    public let schedule: LoanSchedule
    /// The balance after every payment before the day, the next payment and the payoff day.
    public let status: LoanStatus
}

extension Store {
    /// `loan` amortised on its calendar and seen from `today`.
    /// - Throws: `KitError.engine` naming the loan when its schedule cannot be laid out.
    public func loanStanding(_ loan: LedgerLoan, today: Day) throws -> LoanStanding {
        let account = try account(loan.accountID)
        let schedule: LoanSchedule
        do { schedule = try loan.schedule(calendar: try calendar(loan.calendar)) } catch let error as LoanError {
            throw KitError.engine(context: "loan '\(FieldKeys.literal(account.name))'", reason: error.template)
        }
        return LoanStanding(
            loan: loan, account: account, schedule: schedule,
            status: LoanStatus(schedule, principal: loan.terms.principal, start: loan.terms.start, on: today))
    }
}
