import ArgumentParser
import CapitalCore
import CapitalKit
import CapitalOutput
import CapitalStore

extension DueType: ExpressibleByArgument {}

extension DueStatus: ExpressibleByArgument {
    /// `partially-paid` on a command line (`partially paid` also works).
    public init?(argument: String) {
        self.init(rawValue: argument.replacingOccurrences(of: "-", with: " "))
    }

    public static var allValueStrings: [String] { allCases.map { $0.rawValue.replacingOccurrences(of: " ", with: "-") } }
}

extension Capital {
    struct DueCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            "due", "Bills and fines: what is owed, what is paid, and by when.",
            about: """
                A due payment's status is derived from what is paid: unpaid, partially paid or fully paid. The unpaid \
                rest is an outflow on its due day in the forecast (an overdue one today), from --from or the default account.
                """,
            subcommands: [Add.self, List.self, Show.self, Pay.self, Edit.self, Remove.self])
    }
}

extension Capital.DueCommand {
    struct Add: ParsableCommand, SpellsFields {
        static let fieldNames = ["payFrom": "--from", "dueDay": "--due"]

        static let configuration = CommandConfiguration(
            "add", "Register a bill or a fine.",
            about: """
                TYPE is bill or fine. --total, --due and --reason are required; --paid (default 0), --iban (checked: \
                length for its country and ISO 13616 check digits), --address, --institution, --from (the account the \
                forecast pays the rest from; default: the default account) and --category (default Bills or Fines) are optional.
                """,
            example: "capital due add fine --total 4500 --due 2025-03-10 --reason \"Speeding ticket\" --institution \"GIBDD\"",
            "capital due add bill --total 5400 --paid 2000 --due 2025-04-25 --reason \"Electricity, March\" --iban \"GB82 WEST 1234 5698 7654 32\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "bill or fine.") var type: DueType
        @Option(parsing: .unconditional, help: ArgumentHelp("What is owed in all.", valueName: "amount")) var total: String
        @Option(help: ArgumentHelp("The due day, YYYY-MM-DD.", valueName: "date")) var due: String
        @Option(help: ArgumentHelp("What it is for.", valueName: "text")) var reason: String
        @Option(parsing: .unconditional, help: ArgumentHelp("Already paid (default 0).", valueName: "amount")) var paid: String?
        @Option(help: ArgumentHelp("The IBAN to pay to.", valueName: "iban")) var iban = ""
        @Option(help: ArgumentHelp("The payee's address.", valueName: "text")) var address = ""
        @Option(help: ArgumentHelp("Who is owed (a utility, a court, a police department).", valueName: "text")) var institution = ""
        @Option(
            help: ArgumentHelp("The account the forecast pays the rest from (default: the default account).", valueName: "account"),
            completion: .accountNames) var from: String?
        @Option(
            help: ArgumentHelp("The expense category of its payments (default Bills or Fines).", valueName: "category"), completion: .categoryNames)
        var category: String?

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            var input = DueInput(type: type, total: total, reason: reason, dueDay: try parseDay(due, field: "--due"))
            input.paid = paid
            input.iban = iban
            input.address = address
            input.institution = institution
            input.payFrom = from
            input.category = category
            let added = try store.addDue(input)
            let today = try global.todayDay()
            if added.payFromID == nil, try store.defaultAccount() == nil {
                output.note(
                    "Note: there is no default account, so the forecast leaves it out; give one with `capital due edit \(added.number) --from ACCOUNT`."
                )
            }
            try output.said(
                "Added \(added.type.rawValue) #\(added.number): \(added.reason), \(Money(minor: added.left, currency: added.currency).formatted()) left, \(dueWhen(added, today: today)) (\(added.dueDay))."
            ) { Report.due(try global.answer { store, _ in try store.dueDetail(String(added.number)) }, today: today) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "What is still to pay, most urgent first; --all lists every one, most recent first.",
            about: """
                Without --all: the bills and fines not fully paid, overdue ones first (the most overdue first), then by \
                due day, nearest first; on one day the larger rest first. With --all: every one in the order registered, \
                most recent first. --type and --status filter (a --status of fully-paid looks at all of them).
                """,
            example: "capital due list", "capital due list --all --type fine --format json")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Every due payment, paid ones too, most recently registered first.") var all = false
        @Option(help: ArgumentHelp("bill or fine.", valueName: "type")) var type: DueType?
        @Option(help: ArgumentHelp("unpaid, partially-paid or fully-paid.", valueName: "status")) var status: DueStatus?

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            let today = try global.todayDay()
            try global.print(Report.dues(DueListing(all: all, type: type, status: status).listed(try store.dues()), today: today))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            "show", "Show a bill or fine with its details and its payments.", example: "capital due show 2")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its number, as `due list` shows it.") var id: String

        func run() throws {
            try global.print(Report.due(try global.answer { store, _ in try store.dueDetail(id) }, today: try global.todayDay()))
        }
    }

    struct Pay: ParsableCommand {
        static let configuration = CommandConfiguration(
            "pay", "Pay (part of) a bill or fine: records the transaction and raises what is paid.",
            about: """
                Paying more than what is left is refused (the message says what is left). The money comes from --from, \
                else the account set on the due payment, else the default account; --on defaults to today.
                """,
            example: "capital due pay 2 1500 --from \"Sber Debit\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its number, as `due list` shows it.", completion: .openDueNumbers) var id: String
        @Argument(help: "How much is paid now.") var amount: String
        @Option(help: ArgumentHelp("The account it is paid from.", valueName: "account"), completion: .accountNames) var from: String?
        @Option(help: ArgumentHelp("The day it was paid (default today).", valueName: "date")) var on: String?

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let day = try on.map { try parseDay($0, field: "--on") } ?? global.todayDay()
            let (due, transaction) = try store.payDue(id, amount: amount, from: from, on: day)
            let money = { (minor: Int64) in Money(minor: minor, currency: due.currency).formatted() }
            try output.said(
                "Paid \(money(transaction.postings[1].amount.minor)) of \(due.type.rawValue) #\(due.number) (\(due.reason)): "
                    + (due.status == .fullyPaid ? "fully paid." : "\(money(due.left)) left, \(due.status.rawValue).")
            ) { Report.due(try global.answer { store, _ in try store.dueDetail(String(due.number)) }, today: try global.todayDay()) }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            "edit", "Change a bill or fine: any field; optional ones clear with \"\".",
            about: """
                Paid must stay within 0 and the total. Lowering the total below what is paid sets paid to the total (it \
                becomes fully paid, and the command says so). Type, total, due day and reason cannot be emptied; \
                --iban "", --address "", --institution "", --from "" (back to the default account) and --category "" \
                (back to Bills or Fines) clear.
                """,
            example: "capital due edit 2 --total 4000 --institution \"GIBDD Moscow\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its number, as `due list` shows it.") var id: String
        @Option(help: ArgumentHelp("bill or fine.", valueName: "type")) var type: DueType?
        @Option(parsing: .unconditional, help: ArgumentHelp("What is owed in all.", valueName: "amount")) var total: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("What is paid.", valueName: "amount")) var paid: String?
        @Option(help: ArgumentHelp("The due day.", valueName: "date")) var due: String?
        @Option(help: ArgumentHelp("What it is for.", valueName: "text")) var reason: String?
        @Option(help: ArgumentHelp("The IBAN (\"\" clears).", valueName: "iban")) var iban: String?
        @Option(help: ArgumentHelp("The address (\"\" clears).", valueName: "text")) var address: String?
        @Option(help: ArgumentHelp("Who is owed (\"\" clears).", valueName: "text")) var institution: String?
        @Option(
            help: ArgumentHelp("The account the forecast pays from (\"\": the default account).", valueName: "account"), completion: .accountNames)
        var from: String?
        @Option(help: ArgumentHelp("The expense category (\"\": Bills or Fines).", valueName: "category"), completion: .categoryNames) var category:
            String?

        func run() throws {
            let store = try global.ledgerStore(writing: true)
            var edit = DueEdit()
            edit.type = type
            edit.total = total
            edit.paid = paid
            edit.dueDay = try due.map { try parseDay($0, field: "--due") }
            edit.reason = reason
            edit.iban = iban
            edit.address = address
            edit.institution = institution
            edit.payFrom = from
            edit.category = category
            guard
                type != nil || total != nil || paid != nil || due != nil || reason != nil || iban != nil || address != nil || institution != nil
                    || from != nil || category != nil
            else {
                throw CLIError("due edit \(id): nothing to change; give at least one option (see `capital due edit --help`)", exitCode: 64)
            }
            let output = try global.writeOutput()
            let (edited, clamped) = try store.editDue(id, edit)
            let money = { (minor: Int64) in Money(minor: minor, currency: edited.currency).formatted() }
            if clamped {
                output.note(
                    "The total \(money(edited.total)) is below what was paid: paid is now \(money(edited.paid)), and the \(edited.type.rawValue) is fully paid."
                )
            }
            try output.said(
                "Changed \(edited.type.rawValue) #\(edited.number) (\(edited.reason)): \(money(edited.left)) left, \(edited.status.rawValue)."
            ) {
                Report.due(try global.answer { store, _ in try store.dueDetail(String(edited.number)) }, today: try global.todayDay())
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration("rm", "Remove a bill or fine (its recorded payments stay).", example: "capital due rm 3")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its number, as `due list` shows it.") var id: String

        func run() throws {
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let removed = try store.removeDue(id)
            try output.said("Removed \(removed.type.rawValue) #\(removed.number) (\(removed.reason)).") {
                Report.removed(removed.id, [("number", String(removed.number)), ("reason", removed.reason)])
            }
        }
    }
}
