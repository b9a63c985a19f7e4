/// Why a ledger's instruments could not be laid into a forecast.
public enum InstrumentError: Error, Equatable, Sendable, CustomStringConvertible {
    case loan(name: String, LoanError)

    public var description: String {
        switch self {
        case .loan(let name, let error): return "loan '\(name)': \(error)"
        }
    }
}

extension Ledger {
    /// The ledger a forecast works on: the same ledger plus the transactions its instruments make
    /// (loan payments with their split postings, ...), each an ordinary dated transaction, so the
    /// timeline, the drivers of `--why` and group sums see them like any other.
    ///
    /// A loan's liability account is brought to its schedule's balance before today (a correction
    /// dated yesterday, against the equity account); its payments from today to the horizon are
    /// transactions from the paying account: the interest to the loan's category, the principal
    /// to the liability. A loan starting after today is paid out on its start day.
    /// - Complexity: O(transactions + Σ loan terms).
    public func forecastLedger(today: Day, horizon: Day, calendars: [String: WorkingDayCalendar]) throws(InstrumentError) -> Ledger {
        guard !loans.isEmpty else { return self }
        var generated: [Transaction] = []
        let byID = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let equity = accounts.first { $0.kind == .equity }?.id ?? Account.capitalName
        var posted: [String: Int64] = [:]
        for transaction in transactions where transaction.day < today {
            for posting in transaction.postings { posted[posting.accountID, default: 0] &+= posting.amount.minor }
        }
        for loan in loans {
            guard let account = byID[loan.accountID] else { continue }
            let schedule: LoanSchedule
            do { schedule = try loan.schedule(calendar: calendars[loan.calendar] ?? .none) } catch { throw .loan(name: account.name, error) }
            func money(_ minor: Int64) -> Money { Money(minor: minor, currency: account.currency) }
            let terms = loan.terms
            let target = terms.start >= today ? 0 : LoanStatus(schedule, principal: terms.principal, start: terms.start, on: today).balance
            let correction = -target - posted[loan.accountID, default: 0]
            if correction != 0 {
                generated.append(
                    Transaction(
                        id: "\(loan.id)#balance", day: today.advanced(by: -1), payee: "\(account.name): balance by its schedule",
                        postings: [Posting(accountID: loan.accountID, amount: money(correction)), Posting(accountID: equity, amount: money(-correction))]))
            }
            if terms.start >= today && terms.start <= horizon {
                generated.append(
                    Transaction(
                        id: "\(loan.id)#0", day: terms.start, payee: "\(account.name): loan paid out",
                        postings: [
                            Posting(accountID: loan.disburseToID ?? loan.payFromID, amount: money(terms.principal)),
                            Posting(accountID: loan.accountID, amount: money(-terms.principal)),
                        ]))
            }
            for (index, row) in schedule.rows.enumerated() where row.day >= today && row.day <= horizon {
                var postings = [Posting(accountID: loan.payFromID, amount: money(-row.payment))]
                if row.interest != 0 { postings.append(Posting(accountID: loan.interestCategoryID, amount: money(row.interest))) }
                postings.append(Posting(accountID: loan.accountID, amount: money(row.principal)))
                generated.append(
                    Transaction(
                        id: "\(loan.id)#\(index + 1)", day: row.day,
                        payee: row.kind == .payment ? "\(account.name) payment" : "\(account.name) prepayment", postings: postings))
            }
        }
        return adding(generated)
    }

    /// The ledger with `generated` merged in day order (after the day's own transactions).
    func adding(_ generated: [Transaction]) -> Ledger {
        guard !generated.isEmpty else { return self }
        var result = self
        var merged: [Transaction] = []
        merged.reserveCapacity(transactions.count + generated.count)
        let extra = generated.enumerated().sorted { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }.map(\.element)
        var i = 0
        for transaction in transactions {
            while i < extra.count && extra[i].day < transaction.day {
                merged.append(extra[i])
                i += 1
            }
            merged.append(transaction)
        }
        merged.append(contentsOf: extra[i...])
        result.transactions = merged
        return result
    }
}
