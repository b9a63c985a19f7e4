import CapitalCore
import CapitalStore

extension Store {
    /// The ledger as an hledger journal seen from `today` to the last day `horizon` gives: its
    /// transactions, and each schedule, loan, card and deposit as periodic transactions whose
    /// forecast matches capital's (docs/hledger.md). `header` opens it as comment lines.
    /// - Throws: `StoreError` when the ledger cannot be read; `KitError` for a horizon that is not
    ///   one, or an instrument the engine cannot lay out.
    public func journal(today: Day, horizon: HorizonRequest, header: (Day) -> [String]) throws -> String {
        let ledger = try snapshot()
        let last = try horizon.lastDay(today: today)
        do {
            return try Journal.write(ledger, today: today, horizon: last, calendars: try calendars(for: ledger), header: header(last))
        } catch let error as InstrumentError {
            throw KitError.engine(context: "export", reason: error.template)
        }
    }
}
