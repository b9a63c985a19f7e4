import ArgumentParser
import CapitalCore
import CapitalOutput
import CapitalStore

extension Capital {
    struct ScheduleCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule", abstract: "Recurring transactions: add, list, show, edit, skip and remove.",
            subcommands: [Add.self, List.self, Show.self, Edit.self, Skip.self, Remove.self])
    }
}

/// `--scope one|future|all` with `--at DATE`, as calendar apps ask.
struct ScopeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("one (the occurrence on --at), future (it and later ones) or all.", valueName: "scope"),
        completion: .list(["one", "future", "all"]))
    var scope: String?
    @Option(help: ArgumentHelp("The occurrence's day (YYYY-MM-DD), for --scope one or future.", valueName: "date")) var at: String?

    /// The scope asked for; without `--scope`, the whole schedule.
    func resolve() throws -> ScheduleScope {
        let day = try at.map { try parseDay($0, field: "--at") }
        switch scope {
        case nil, "all"?:
            if let at { throw CLIError.invalid("--at", at, "goes with --scope one or --scope future") }
            return .all
        case "one"?, "future"?:
            guard let day else { throw CLIError.invalid("--scope", scope!, "needs --at DATE: which occurrence?") }
            return scope == "one" ? .one(day) : .future(day)
        default:
            throw CLIError.invalid("--scope", scope!, "expected one, future or all")
        }
    }
}

extension Capital.ScheduleCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a recurring transaction.",
            discussion: HelpExamples.laidOut(
                """
                An amount (fixed, or a range LOW..HIGH with --expected) moves from --from to --to; or give the \
                postings of a split (one may leave its amount out). Occurrences before today count as already \
                recorded unless --backfill.
                Examples:
                  capital schedule add "Salary Anna" --rule "monthly on 10" --adjust preceding --start 2025-01-10 --amount 180000 --from Salary --to "VTB Debit"
                  capital schedule add Lunch --rule "every working day" --calendar RU --start 2025-01-09 --amount 250..500 --from Cash --to "Eating out"
                  capital schedule add Mortgage --rule "monthly on 5" --start 2025-01-05 --posting "Loan interest=60000" --posting Mortgage=10000 --posting "VTB Debit"
                """))

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The schedule's name (unique).") var name: String
        @Option(help: ArgumentHelp("A readable rule or RRULE text.", valueName: "rule")) var rule: String
        @Option(help: ArgumentHelp("The first day the rule may fall on.", valueName: "date")) var start: String
        @Option(help: ArgumentHelp("The last day (inclusive).", valueName: "date")) var end: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("At most this many occurrences.", valueName: "n")) var count: Int?
        @Option(
            help: ArgumentHelp("RU, US or none (default: the ledger's, which follows a later `calendar use`).", valueName: "name"))
        var calendar: String?
        @Option(help: ArgumentHelp("none, following, preceding, modified-following, modified-preceding or skip.", valueName: "adjustment"))
        var adjust: BusinessDayAdjustment?
        @Option(parsing: .unconditional, help: ArgumentHelp("AMOUNT or LOW..HIGH.", valueName: "amount")) var amount: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("The expected value of a range (default: its midpoint).", valueName: "amount"))
        var expected: String?
        @Option(help: ArgumentHelp("The account the amount leaves.", valueName: "account"), completion: .accountNames) var from: String?
        @Option(help: ArgumentHelp("The account or category it goes to.", valueName: "account"), completion: .accountNames) var to: String?
        @Option(
            name: [.customShort("p"), .long], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("ACCOUNT=AMOUNT of a split template (repeatable).", valueName: "posting"))
        var posting: [String] = []
        @Option(help: ArgumentHelp("auto (post when due) or confirm (wait for approval).", valueName: "mode")) var approval: Schedule.Approval = .auto
        @Option(parsing: .unconditional, help: "A note for its transactions.") var note = ""
        @Flag(help: "Also post the occurrences between --start and today.") var backfill = false

        func run() throws {
            var input = ScheduleInput(name: name, rule: rule, start: try parseDay(start, field: "--start"))
            input.end = try end.map { try parseDay($0, field: "--end") }
            input.count = count
            input.calendar = calendar
            input.adjustment = adjust
            input.amount = amount
            input.expected = expected
            input.from = from
            input.to = to
            input.postings = try posting.map(parsePosting)
            input.approval = approval
            input.note = note
            input.backfill = backfill
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let schedule = try store.addSchedule(input, today: try global.todayDay())
            try output.said("Added schedule '\(schedule.name)' (\(Store.shortID(schedule.id))): \(schedule.rule.text), from \(schedule.start).") {
                try global.scheduleRecord(schedule.id)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            "list", "List schedules with their next day and monthly equivalent.", example: "capital schedule list --format json")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.ledgerStore(writing: false)
            try global.print(Report.schedules(try kit { try store.scheduleSummaries(today: try global.todayDay()) }))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            "show", "Show a schedule and its next occurrences with their amounts.", example: "capital schedule show Lunch --next 5")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Schedule name or id prefix.", completion: .scheduleNames) var schedule: String
        @Option(parsing: .unconditional, help: ArgumentHelp("How many occurrences to list.", valueName: "n")) var next = 10

        func run() throws {
            guard next > 0 else { throw CLIError.invalid("--next", String(next), "must be at least 1") }
            try global.print(Report.schedule(try global.answer { try $0.scheduleDetail(schedule, today: $1, next: next) }))
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change one occurrence, this and future ones (splits the schedule), or all.",
            discussion: HelpExamples.laidOut(
                """
                Examples:
                  capital schedule edit Lunch --scope one --at 2025-03-07 --amount 900
                  capital schedule edit "Salary Anna" --scope one --at 2025-05-10 --move-to 2025-05-08
                  capital schedule edit "Salary Anna" --scope future --at 2025-06-10 --amount 200000
                  capital schedule edit Phones --scope all --rule "monthly on 3"
                """))

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Schedule name or id prefix.", completion: .scheduleNames) var schedule: String
        @OptionGroup var scope: ScopeOptions
        @Option(help: "A new name.") var name: String?
        @Option(help: ArgumentHelp("A new rule.", valueName: "rule")) var rule: String?
        @Option(help: ArgumentHelp("A new calendar: RU, US, none, or ledger (follow the ledger's).", valueName: "name")) var calendar: String?
        @Option(help: ArgumentHelp("A new adjustment.", valueName: "adjustment")) var adjust: BusinessDayAdjustment?
        @Option(parsing: .unconditional, help: ArgumentHelp("A new amount or LOW..HIGH (one occurrence: one amount).", valueName: "amount"))
        var amount: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("A new expected value of the range.", valueName: "amount")) var expected: String?
        @Option(help: ArgumentHelp("auto or confirm.", valueName: "mode")) var approval: Schedule.Approval?
        @Option(help: ArgumentHelp("A new last day; \"\" for none.", valueName: "date")) var end: String?
        @Option(name: .customLong("move-to"), help: ArgumentHelp("Move the occurrence (--scope one) to this day.", valueName: "date")) var moveTo:
            String?
        @Option(parsing: .unconditional, help: "A new note.") var note: String?

        func run() throws {
            var changes = ScheduleChanges()
            changes.name = name
            changes.rule = rule
            changes.calendar = calendar
            changes.adjustment = adjust
            changes.amount = amount
            changes.expected = expected
            changes.approval = approval
            changes.note = note
            if let end { changes.end = end.isEmpty ? .some(nil) : .some(try parseDay(end, field: "--end")) }
            changes.moveTo = try moveTo.map { try parseDay($0, field: "--move-to") }
            let resolved = try scope.resolve()
            let output = try global.writeOutput()
            let updated = try global.ledgerStore(writing: true).editSchedule(schedule, changes, scope: resolved, today: try global.todayDay())
            let line =
                switch resolved {
                case .one(let day): "Changed the occurrence of \(day) of '\(updated.name)'."
                case .future(let day): "Split the schedule: from \(day) on it continues as '\(updated.name)' (\(Store.shortID(updated.id)))."
                case .all: "Updated schedule '\(updated.name)'."
                }
            try output.said(line) { try global.scheduleRecord(updated.id) }
        }
    }

    struct Skip: ParsableCommand {
        static let configuration = CommandConfiguration("skip", "Skip one occurrence.", example: "capital schedule skip Gymnastics --at 2025-07-04")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Schedule name or id prefix.", completion: .scheduleNames) var schedule: String
        @Option(help: ArgumentHelp("The occurrence's day.", valueName: "date")) var at: String

        func run() throws {
            let day = try parseDay(at, field: "--at")
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let found = try store.schedule(schedule)
            try store.skipOccurrence(schedule, at: day)
            try output.said("Skipped the occurrence of \(day).") { try global.scheduleRecord(found.id) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            "rm", "Remove one occurrence, this and future ones, or the whole schedule (default).",
            example: "capital schedule rm Gymnastics --scope future --at 2025-09-04")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Schedule name or id prefix.", completion: .scheduleNames) var schedule: String
        @OptionGroup var scope: ScopeOptions

        func run() throws {
            let resolved = try scope.resolve()
            let output = try global.writeOutput()
            let store = try global.ledgerStore(writing: true)
            let found = try store.schedule(schedule)
            try store.removeSchedule(schedule, scope: resolved)
            switch resolved {
            case .one(let day): try output.said("Skipped the occurrence of \(day).") { try global.scheduleRecord(found.id) }
            case .future(let day): try output.said("The schedule now ends before \(day).") { try global.scheduleRecord(found.id) }
            case .all: try output.said("Removed schedule '\(found.name)'.") { Report.removed(found.id, [("name", found.name)]) }
            }
        }
    }
}
