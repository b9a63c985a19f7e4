import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore
import Foundation

extension Capital {
    struct AccountCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "account", abstract: "Add, list, show, edit and remove accounts and categories.",
            subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self])
    }
}

extension AccountKind: ExpressibleByArgument {}
extension GroupType: ExpressibleByArgument {}

/// An amount option that may be cleared with an empty value (`--floor ""`).
func clearableMinor(_ text: String?, field: String, currency: Currency) throws -> Int64?? {
    guard let text else { return nil }
    if text.isEmpty { return .some(nil) }
    return .some(try parseMoney(text, field: field, currency: currency).minor)
}

/// `--value-change` and `--value-since`: a fixed asset whose value changes at a yearly rate.
struct ValueChangeOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "For a fixed asset: its value's change a year in percent, e.g. -15 (a car) or 3.5 (a flat); \"\" clears it.", valueName: "percent"))
    var valueChange: String?
    @Option(help: ArgumentHelp("The day the asset's value was known, where the yearly change counts from (default today).", valueName: "date"))
    var valueSince: String?

    /// nil: nothing given; `.some(nil)`: cleared.
    func revaluation(today: Day, current: AssetRevaluation? = nil) throws -> AssetRevaluation?? {
        guard let valueChange else {
            guard let valueSince else { return nil }
            guard let current else { throw CLIError.invalid("--value-since", valueSince, "goes with --value-change") }
            return .some(try AssetRevaluation(annualChange: current.annualChange, since: try parseDay(valueSince, field: "--value-since")))
        }
        if valueChange.isEmpty { return .some(nil) }
        let since = try valueSince.map { try parseDay($0, field: "--value-since") } ?? current?.since ?? today
        do { return .some(try AssetRevaluation(parsing: valueChange, since: since)) } catch .invalid(let field, let value, let reason) {
            throw CLIError.invalid(Flags.spell(field), value, reason)
        }
    }
}

/// `--color` and `--icon`: how tables and charts show an account (mostly a category).
struct StyleOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A colour for its name in tables: black, red, green, yellow, blue, magenta, cyan, white, bright-<colour>, or #RRGGBB (edit: \"\" clears it).",
            valueName: "colour"))
    var color: String?
    @Option(help: ArgumentHelp("One emoji shown before its name (edit: \"\" clears it).", valueName: "emoji")) var icon: String?

    /// For a new account: nil when absent or empty.
    var newColor: String? { color.flatMap { $0.isEmpty ? nil : $0 } }
    var newIcon: String? { icon.flatMap { $0.isEmpty ? nil : $0 } }

    /// Writes the options into `changes`: absent leaves a field alone, empty clears it.
    func apply(to changes: inout AccountChanges) {
        if let color { changes.color = .some(color.isEmpty ? nil : color) }
        if let icon { changes.icon = .some(icon.isEmpty ? nil : icon) }
    }
}

extension Capital.AccountCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            "add", "Add an account or a category.", example: "capital account add \"VTB Debit\" --kind debit --floor 10000 --default")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account's name (unique).") var name: String
        @Option(
            help: ArgumentHelp(
                "cash, debit, credit-card, deposit, receivable, fixed-asset, loan, payable, income, expense or equity.", valueName: "kind"))
        var kind: AccountKind
        @Option(help: ArgumentHelp("ISO 4217 code (default: the ledger's).", valueName: "code")) var currency: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A reserve the balance must not go below.", valueName: "amount")) var floor: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("Answer-ladder level override, 1 to 6.", valueName: "n")) var level: Int?
        @Option(help: ArgumentHelp("Put the account in this group (repeatable).", valueName: "group"), completion: .groupNames) var group: [String] =
            []
        @Option(help: "A free-text note.") var note = ""
        @Flag(help: "Make it the account spend/earn use when none is named.") var `default` = false
        @OptionGroup var value: ValueChangeOptions
        @OptionGroup var style: StyleOptions

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            var code: Currency?
            if let currency {
                do { code = try Currency(currency) } catch { throw CLIError.invalid("--currency", currency, "not an ISO 4217 currency code") }
            }
            let floorCurrency = try code ?? store.currency()
            let floorMinor = try floor.map { try parseMoney($0, field: "--floor", currency: floorCurrency).minor }
            let account = try store.addAccount(
                name: name, kind: kind, currency: code, floor: floorMinor, level: level, note: note, groups: group, makeDefault: `default`,
                valueChange: try value.revaluation(today: try global.todayDay()) ?? nil, color: style.newColor, icon: style.newIcon)
            try output.said("Added \(account.kind.rawValue) account '\(account.name)' (\(Store.shortID(account.id)), \(account.currency.code)).") {
                try global.accountRecord(account.id)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List accounts with today's balances.", example: "capital account list --kind debit --format json")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Include hidden accounts.") var all = false
        @Option(help: ArgumentHelp("Only accounts of this kind.", valueName: "kind")) var kind: AccountKind?
        @Flag(help: "Only categories (income and expense accounts).") var categories = false
        @OptionGroup var on: OnOption

        func run() throws {
            let day = try on.day(global)
            let (sheet, defaultID) = try global.answer { store, today in
                (try store.balanceSheet(on: day, today: today), try store.defaultAccount()?.id)
            }
            let shown = sheet.ledger.accounts.filter {
                (all || !$0.hidden) && (kind == nil || $0.kind == kind) && (!categories || $0.kind.isCategory)
            }
            try global.print(Report.accounts(shown, sheet, defaultID: defaultID))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            "show", "Show one account: its fields, balance, postings and groups.", example: "capital account show \"VTB Debit\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account name or id prefix.", completion: .accountNames) var account: String
        @OptionGroup var on: OnOption
        @OptionGroup var overdue: OverdueOption

        func run() throws {
            let ignoring = try overdue.ignoresOverdue()
            let day = try on.asked()
            let detail = try global.answer { try $0.accountDetail(account, today: $1, on: day, ignoringOverdue: ignoring) }
            try global.print(Report.account(detail), counting: detail.outlook?.overdue)
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            "edit", "Change an account's name, kind, floor, level, note, colour, icon or visibility.",
            example: "capital account edit \"VTB Debit\" --floor 20000 --level 2   (--floor \"\" clears it)")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account name or id prefix.", completion: .accountNames) var account: String
        @Option(help: "A new name.") var name: String?
        @Option(help: ArgumentHelp("A new kind.", valueName: "kind")) var kind: AccountKind?
        @Option(parsing: .unconditional, help: ArgumentHelp("A new floor; \"\" clears it.", valueName: "amount")) var floor: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A new ladder level 1 to 6; \"\" clears it.", valueName: "n")) var level: String?
        @Option(help: "A new note.") var note: String?
        @Flag(help: "Hide the account from listings.") var hide = false
        @Flag(help: "Show a hidden account again.") var unhide = false
        @Flag(help: "Make it the default account for spend and earn.") var `default` = false
        @OptionGroup var value: ValueChangeOptions
        @OptionGroup var style: StyleOptions

        func validate() throws {
            if hide && unhide { throw ValidationError("--hide and --unhide: choose one") }
        }

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let existing = try store.account(account)
            var changes = AccountChanges()
            changes.name = name
            changes.kind = kind
            changes.floor = try clearableMinor(floor, field: "--floor", currency: existing.currency)
            if let level {
                if level.isEmpty {
                    changes.level = .some(nil)
                } else {
                    guard let value = Int(level) else { throw CLIError.invalid("--level", level, "expected a level 1 to 6") }
                    changes.level = .some(value)
                }
            }
            changes.note = note
            changes.valueChange = try value.revaluation(today: try global.todayDay(), current: existing.valueChange)
            if hide { changes.hidden = true }
            if unhide { changes.hidden = false }
            style.apply(to: &changes)
            let updated = try store.editAccount(account, changes, makeDefault: `default`)
            try output.said("Updated account '\(updated.name)' (\(Store.shortID(updated.id))).") { try global.accountRecord(updated.id) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            "rm", "Remove an account; one with postings needs --move-to, --to-capital, --hide or --cascade.",
            example: "capital account rm \"Old card\" --move-to \"VTB Debit\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Account name or id prefix.", completion: .accountNames) var account: String
        @Option(
            name: .customLong("move-to"), help: ArgumentHelp("Reassign its postings to this account.", valueName: "account"),
            completion: .accountNames) var moveTo: String?
        @Flag(name: .customLong("to-capital"), help: "Reassign its postings to Capital.") var toCapital = false
        @Flag(help: "Keep it and its history, hidden from listings.") var hide = false
        @Flag(help: "Delete the transactions that touch it (asks first unless --yes).") var cascade = false
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func validate() throws {
            let chosen = [moveTo != nil, toCapital, hide, cascade].filter { $0 }.count
            if chosen > 1 { throw ValidationError("--move-to, --to-capital, --hide, --cascade: choose one") }
        }

        func run() throws {
            let store = try global.ledgerStore(writing: true)
            let removal: AccountRemoval =
                if let moveTo { .moveTo(moveTo) } else if toCapital { .toCapital } else if hide { .hide } else if cascade { .cascade } else { .plain }
            if cascade && !yes {
                let count = try store.postingCount(account)
                guard confirm("Delete account '\(account)' and the transactions of its \(count.counted("posting"))? [y/N] ") else {
                    throw CLIError("--cascade: not confirmed; nothing was changed (add --yes to skip the question)")
                }
            }
            let output = try global.writeOutput()
            let found = try store.account(account)
            let done = try store.removeAccount(account, removal)
            // Hidden, it is still there: its record; removed, what it was.
            try output.said(done.capitalizedFirst + ".") {
                if removal == .hide { return try global.accountRecord(found.id) }
                let movedTo = moveTo ?? (toCapital ? "Capital" : nil)
                let postings = [("postings", movedTo != nil ? "moved" : cascade ? "deleted" : "none")] + (movedTo.map { [("movedTo", $0)] } ?? [])
                return Report.removed(found.id, [("name", found.name)] + postings)
            }
        }
    }
}

/// Asks on the terminal; false when stdin is not a terminal.
func confirm(_ question: String) -> Bool {
    let console = Console.current
    guard console.inputIsTerminal else { return false }
    console.write(question)
    guard let answer = console.readLine() else { return false }
    return ["y", "yes"].contains(answer.lowercased())
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
