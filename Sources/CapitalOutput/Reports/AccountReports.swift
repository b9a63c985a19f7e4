import CapitalCore
import CapitalKit

package extension Report {
    /// `account list`: `accounts` with their balances on the sheet's day.
    static func accounts(_ accounts: [Account], _ sheet: BalanceSheet, defaultID: String?) -> Report {
        var section = Section(
            name: "accounts",
            columns: [
                Column("id", "ID"), Column("name", "Name"), Column("kind", "Kind"), Column("currency", "Cur"),
                Column("balance", "Balance", numeric: true), Column("floor", "Floor", numeric: true), Column("level", "Level", numeric: true),
                Column("hidden", "Hidden"), Column("default", "Default"), Column("icon", "Icon", tableHidden: true),
                Column("color", "Colour", tableHidden: true),
            ])
        section.rows = accounts.map { account in
            [
                .id(account.id), .label(Label(account)), .text(account.kind.rawValue), .text(account.currency.code),
                .money(sheet.balance(of: account)),
                floorCell(account), account.level.map { .int($0) } ?? .none, .bool(account.hidden), .bool(account.id == defaultID),
                account.icon.map { .text($0) } ?? .none, account.color.map { .text($0) } ?? .none,
            ]
        }
        return Report([section])
    }

    /// `account show`.
    static func account(_ detail: AccountDetail) -> Report {
        let found = detail.account
        return record(
            "account",
            [
                (Column("id", "ID"), .text(found.id)), (Column("name", "Name"), .label(Label(found))),
                (Column("kind", "Kind"), .text(found.kind.rawValue)),
                (Column("icon", "Icon"), found.icon.map { .text($0) } ?? .none), (Column("color", "Colour"), colorCell(found)),
                (Column("currency", "Currency"), .text(found.currency.code)), (Column("balance", "Balance"), .money(detail.balance)),
                (Column("floor", "Floor"), floorCell(found)), (Column("level", "Level"), found.level.map { .int($0) } ?? .none),
                (Column("hidden", "Hidden"), .bool(found.hidden)), (Column("default", "Default"), .bool(detail.isDefault)),
                (Column("postings", "Postings"), .int(detail.postings)), (Column("groups", "Groups"), .list(detail.groups)),
                (Column("note", "Note"), .optional(found.note)),
                (Column("valueChange", "Value change a year"), found.valueChange.map { .text($0.description) } ?? .none),
                (Column("valueSince", "  counted from"), found.valueChange.map { .day($0.since) } ?? .none),
            ] + outlookFields(detail.outlook))
    }

    /// `group show`: its accounts, its totals per currency, and the year ahead.
    static func group(_ detail: GroupDetail) -> Report {
        var section = Section(
            name: "accounts", title: "\(detail.group.name) (\(detail.group.type.rawValue))",
            columns: [Column("name", "Account"), Column("kind", "Kind"), Column("balance", "Balance", numeric: true)])
        section.rows = detail.accounts.map { [.label(Label($0.account)), .text($0.account.kind.rawValue), .money($0.balance)] }
        var total = Section(name: "totals", title: "Total", columns: [Column("currency", "Currency"), Column("balance", "Balance", numeric: true)])
        total.rows = detail.totals.map { [.text($0.currency.code), .money($0)] }
        var sections = [section, total]
        let ahead = outlookFields(detail.outlook)
        if !ahead.isEmpty {
            var future = Section(name: "outlook", title: "Ahead (\(detail.currency.code) accounts, expected amounts)", columns: ahead.map(\.0))
            future.rows = [ahead.map(\.1)]
            sections.append(future)
        }
        var report = Report(sections)
        let group = detail.group
        report.envelope = Envelope(fields: [("id", .string(group.id)), ("name", .string(group.name)), ("type", .string(group.type.rawValue))])
        return report
    }

    /// `balance`: every account's balances (balance-sheet accounts that are not hidden, unless
    /// `all`) and every group's, per currency.
    /// `balance`: each account in its currency and valued in the ledger's (`value`), each group
    /// valued in the ledger's; `byCurrency` adds a group's native total per currency.
    static func balances(_ sheet: BalanceSheet, all: Bool, byCurrency: Bool = false) throws -> Report {
        let ledger = sheet.ledger.currency
        var accounts = Section(
            name: "accounts", title: "Balances on \(sheet.day)",
            columns: [
                Column("account", "Account"), Column("kind", "Kind"), Column("balance", "Balance", numeric: true), Column("currency", "Cur"),
                Column("value", "In \(ledger.code)", numeric: true),
            ])
        for account in sheet.ledger.accounts where all || (!account.hidden && account.kind.isBalanceSheet) {
            for money in sheet.balances(of: account) {
                let value = try sheet.value(money, of: "account '\(FieldKeys.literal(account.name))'")
                accounts.rows.append([.label(Label(account)), .text(account.kind.rawValue), .money(money), .text(money.currency.code), .money(value)])
            }
        }
        var groups = Section(
            name: "groups", title: "Groups",
            columns: [Column("group", "Group"), Column("type", "Type"), Column("balance", "Balance", numeric: true), Column("currency", "Cur")])
        if byCurrency { groups.columns.append(Column("value", "In \(ledger.code)", numeric: true)) }
        for group in sheet.ledger.groups {
            let total = try sheet.total(of: group)
            guard byCurrency else {
                groups.rows.append([.text(group.name), .text(group.type.rawValue), .money(total), .text(total.currency.code)])
                continue
            }
            let natives = try sheet.totals(of: group)
            for native in natives {
                let value = try sheet.value(native, of: "group '\(FieldKeys.literal(group.name))'")
                groups.rows.append([.text(group.name), .text(group.type.rawValue), .money(native), .text(native.currency.code), .money(value)])
            }
            if natives.count > 1 || natives.first?.currency != ledger {
                groups.rows.append([.text(group.name), .text("total"), .money(total), .text(total.currency.code), .money(total)])
            }
        }
        // A ledger in one currency has nothing to value: tables keep to the balance.
        if accounts.rows.allSatisfy({ if case .text(let code) = $0[3] { code == ledger.code } else { true } }) {
            accounts.columns[4].tableHidden = true
        }
        guard byCurrency else { return Report([accounts, groups], keyed: true) }
        // What is owned less what is owed, per currency and valued, then in all.
        var worth = Section(
            name: "netWorth", title: "Net worth by currency",
            columns: [Column("currency", "Cur"), Column("balance", "Balance", numeric: true), Column("value", "In \(ledger.code)", numeric: true)])
        var total: Int64 = 0
        for native in try sheet.netWorth() {
            let value = try sheet.value(native, of: "net worth in \(native.currency.code)")
            total = saturatingSum(total, value.minor)
            worth.rows.append([.text(native.currency.code), .money(native), .money(value)])
        }
        worth.rows.append([.text("all"), .none, .money(Money(minor: total, currency: ledger))])
        return Report([accounts, groups, worth], keyed: true)
    }

    /// `category list`: `categories` with this month's totals; the hidden column in tables only
    /// with `showHidden`.
    static func categories(_ categories: [Account], _ month: MonthToDate, showHidden: Bool) throws -> Report {
        var section = Section(
            name: "categories",
            columns: [
                Column("id", "ID", tableHidden: true), Column("name", "Name"), Column("kind", "Kind"), Column("icon", "Icon", tableHidden: true),
                Column("color", "Colour"), Column("thisMonth", "This month", numeric: true), Column("currency", "Cur"),
                Column("hidden", "Hidden", tableHidden: !showHidden),
            ])
        section.rows = try categories.map { category in
            [
                .id(category.id), .label(Label(category)), .text(category.kind.rawValue), category.icon.map { .text($0) } ?? .none,
                colorCell(category),
                .money(try month.total(of: category)), .text(category.currency.code), .bool(category.hidden),
            ]
        }
        return Report([section])
    }

    /// The outlook as fields of the account and group screens; none without one.
    static func outlookFields(_ outlook: Outlook?) -> [(Column, Cell)] {
        guard let outlook else { return [] }
        return [
            (Column("current", "Today (with today's flows)"), .money(outlook.current)),
            (Column("forecastLow", outlook.isDebt ? "Largest debt ahead" : "Lowest ahead"), .money(outlook.low)),
            (Column("forecastLowDay", outlook.isDebt ? "Largest debt on" : "Lowest on"), .day(outlook.lowDay)),
            (Column("forecastUntil", "Looking to"), .day(outlook.horizon)),
        ]
    }
}

/// An account's floor in its currency; empty when it has none.
package func floorCell(_ account: Account) -> Cell {
    account.floor.map { .money(Money(minor: $0, currency: account.currency)) } ?? .none
}

/// An account's colour, its name drawn in it; empty when it has none.
package func colorCell(_ account: Account) -> Cell {
    guard let color = account.color else { return .none }
    return .label(Label(name: color, color: account.parsedColor))
}
