import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

/// `POST …/transactions`: `capital spend`, `earn` and `transfer` on the server's copy, for a
/// member (a viewer only reads). The body names the move and its fields as the commands' options
/// do; the answer is the transaction as `capital spend … --format json` writes it.
struct QuickEntryBody: Decodable, Sendable {
    /// `spend` (from an account to an expense category), `earn` (from an income category into an
    /// account) or `transfer` (between two accounts).
    var kind: String
    var amount: Amount
    var category: String?
    var from: String?
    var to: String?
    /// The day, `YYYY-MM-DD` (default today).
    var on: String?
    var payee: String?
    var note: String?
    /// Who spent (default: the signed-in person).
    var spender: String?
    var tags: [String]?
    /// The expected flow it stands for, `NAME@DATE`; else the nearest open one of this amount
    /// within `matchDays` (default 3).
    var settles: String?
    var matchDays: Int?
    /// Between two currencies: what the other currency came to, or the rate.
    var paid: Amount?
    var rate: Amount?

    /// A spend from the web page's form.
    init(kind: String, amount: Amount, category: String?, from: String?, note: String?, spender: String?) {
        (self.kind, self.amount, self.category, self.from, self.note, self.spender) = (kind, amount, category, from, note, spender)
    }

    /// An amount as JSON gives it: a string (`"1500.50"`) or a number (`1500.5`), read as text.
    struct Amount: Decodable, Sendable {
        let text: String
        init(text: String) { self.text = text }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
            } else {
                self.text = "\(try container.decode(Decimal.self))"
            }
        }
    }

    /// The entry this body asks for, by `user` on `today` unless it says otherwise.
    func entry(user: String, today: Day) throws -> QuickEntry {
        let move: QuickEntry.Move
        switch kind {
        case "spend":
            guard let category else { throw ScenarioAnswer.field("category", "", "spend needs the expense category") }
            move = .spend(category: category, from: from)
        case "earn":
            guard let category else { throw ScenarioAnswer.field("category", "", "earn needs the income category") }
            move = .earn(category: category, to: to)
        case "transfer":
            guard let from else { throw ScenarioAnswer.field("from", "", "a transfer needs the account it leaves") }
            guard let to else { throw ScenarioAnswer.field("to", "", "a transfer needs the account it reaches") }
            move = .transfer(from: from, to: to)
        default:
            throw ScenarioAnswer.field("kind", kind, "expected spend, earn or transfer")
        }
        var day = today
        if let on {
            do { day = try Day(input: on) } catch { throw ScenarioAnswer.field("on", on, "\(error)") }
        }
        var entry = QuickEntry(move, amount: amount.text, day: day)
        (entry.paid, entry.rate) = (paid?.text, rate?.text)
        (entry.payee, entry.note, entry.spender, entry.tags) = (payee ?? "", note ?? "", spender ?? user, tags ?? [])
        if let matchDays, !(0...366).contains(matchDays) {
            throw ScenarioAnswer.field("matchDays", String(matchDays), "expected a whole number of days from 0 to 366")
        }
        if let settles {
            if matchDays != nil { throw ScenarioAnswer.field("matchDays", String(matchDays!), "give either settles or matchDays, not both") }
            do { _ = try Store.parseFlowReference(settles, field: "{settles}") } catch {
                throw ScenarioAnswer.field("settles", settles, Problem.reason(FieldKeys.spell("\(error)") { $0 }))
            }
            entry.settling = .named(settles)
        } else {
            entry.settling = .match(days: matchDays ?? 3)
        }
        return entry
    }

    /// Records the entry on `store` and answers the transaction's record.
    func record(_ store: Store, user: String, today: Day) throws -> String {
        let entry = try entry(user: user, today: today)
        do {
            let recorded = try store.record(entry)
            return Report.transaction(recorded.transaction, try store.accounts(includeHidden: true), table: false).render(.json, RenderOptions())
        } catch let error as KitError {
            throw Problem(error, field: true)
        } catch let error as StoreError {
            if case .notFound(_, let reference, _) = error,
                let name = [("category", category), ("from", from), ("to", to), ("settles", settles)].first(where: { $0.1 == reference })?.0
            {
                throw ScenarioAnswer.field(name, reference, Problem.reason(error.description))
            }
            // A text the store refused (a control character, too long): the body's field.
            if case .malformed(let key, let value, let reason) = error,
                let name = ["{payee}": "payee", "{note}": "note", "{spender}": "spender", "{tag}": "tags"][key]
            {
                throw ScenarioAnswer.field(name, value, reason)
            }
            throw Problem(422, "unanswerable", error.description)
        }
    }
}
