import CapitalCore

package extension Report {
    /// `tx show`: the transaction's fields and its postings; in a table, its fields as lines
    /// above the postings.
    static func transaction(_ t: Transaction, _ accounts: [Account], table: Bool) -> Report {
        var postings = Section(
            name: "postings", title: "Postings",
            columns: [Column("account", "Account"), Column("amount", "Amount", numeric: true), Column("currency", "Cur"), Column("note", "Note")])
        let labels = AccountLabels(accounts)
        postings.rows = t.postings.map { [.label(labels[$0.accountID]), .money($0.amount), .text($0.amount.currency.code), .text($0.note)] }
        if table {
            var report = Report([postings])
            report.headline =
                ["\(t.day)  \(t.payee.isEmpty ? "(no payee)" : t.payee)  [\(t.id)]"]
                + [("note", t.note), ("spender", t.spender), ("tags", t.tags.joined(separator: ", "))].filter { !$0.1.isEmpty }.map { "\($0): \($1)" }
            return report
        }
        var head = Section(
            name: "transaction",
            columns: [
                Column("id", "ID"), Column("date", "Date"), Column("payee", "Payee"), Column("note", "Note"), Column("spender", "Spender"),
                Column("tags", "Tags"),
            ])
        head.rows = [[.text(t.id), .day(t.day), .text(t.payee), .optional(t.note), .text(t.spender), .list(t.tags)]]
        let names = Dictionary(accounts.map { ($0.id, $0.name) }) { first, _ in first }
        var report = Report([head, postings])
        report.json = .object([
            ("id", .string(t.id)), ("date", .string(t.day.iso)), ("payee", .string(t.payee)), ("note", t.note.isEmpty ? .null : .string(t.note)),
            ("spender", .string(t.spender)), ("tags", .array(t.tags.map(JSON.string))),
            (
                "postings",
                .array(
                    t.postings.map {
                        .object([
                            ("account", .string(names[$0.accountID] ?? $0.accountID)), ("amount", .string($0.amount.plain)),
                            ("currency", .string($0.amount.currency.code)), ("note", $0.note.isEmpty ? .null : .string($0.note)),
                        ])
                    })
            ),
        ])
        return report
    }
}

/// Rows of the transaction listing: id, date, payee, amount, from and to accounts.
package func transactionSection(_ transactions: [Transaction], _ ledger: Ledger) -> Section {
    let labels = AccountLabels(ledger.accounts)
    var section = Section(
        name: "transactions",
        columns: [
            Column("id", "ID"), Column("date", "Date"), Column("payee", "Payee"), Column("amount", "Amount", numeric: true),
            Column("currency", "Cur"), Column("from", "From"), Column("to", "To"), Column("spender", "Spender"), Column("note", "Note"),
        ])
    let equity = Set(ledger.accounts.filter { $0.kind == .equity }.map(\.id))
    for t in transactions {
        let currency = t.postings.first?.amount.currency ?? ledger.currency
        // Across currencies the equity account carries each currency's other side (an exchange):
        // From and To name the accounts the money really left and reached, when there are any.
        let crosses = t.postings.contains { $0.amount.currency != currency }
        func accounts(_ negative: Bool) -> [Label] {
            var result: [Label] = []
            var others = 0
            for p in t.postings where p.amount.minor != 0 && (p.amount.minor < 0) == negative {
                if !equity.contains(p.accountID) { others += 1 }
                let label = labels[p.accountID]
                if !result.contains(where: { $0.name == label.name }) { result.append(label) }
            }
            guard crosses, others > 0 else { return result }
            let equityNames = Set(equity.map { labels[$0].name })
            return result.filter { !equityNames.contains($0.name) }
        }
        section.rows.append([
            .id(t.id), .day(t.day), .text(t.payee), .money(Money(minor: t.amount, currency: currency)), .text(currency.code),
            .labels(accounts(true)), .labels(accounts(false)), .text(t.spender), .text(t.note),
        ])
    }
    return section
}
