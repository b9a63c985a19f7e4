import ArgumentParser
import CapitalCore
import CapitalOutput
import CapitalStore

extension BusinessDayAdjustment: ExpressibleByArgument {}
extension Schedule.Approval: ExpressibleByArgument {}

extension Capital {
    struct RuleCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rule", abstract: "Try recurrence rules without a database.", subcommands: [Expand.self])
    }
}

/// A rule from the command line, or a one-line error naming it.
func parseRule(_ text: String, calendar: String, adjustment: BusinessDayAdjustment?) throws -> Rule {
    do {
        return try Rule(parsing: text, calendar: calendar, adjustment: adjustment)
    } catch .invalid(let part, let value, let reason) where part == "adjust" {
        throw CLIError.invalid("--adjust", value, reason)
    } catch {
        throw CLIError("RULE '\(text)': \(spelled(error))".replacingOccurrences(of: ": '\(text)' is", with: ": it is"), exitCode: 64)
    }
}

/// A shipped calendar by name, or a one-line error listing the known ones.
func shippedCalendar(_ name: String) throws -> WorkingDayCalendar {
    do { return try Calendars.named(name) } catch {
        throw CLIError.invalid("--calendar", name, "unknown; capital ships \(Calendars.names.joined(separator: ", "))")
    }
}

extension Capital.RuleCommand {
    struct Expand: ParsableCommand {
        static let configuration = CommandConfiguration(
            "expand", "Print the days a rule falls on between --start and --until (both included).",
            about: """
                RULE is RRULE text (FREQ=MONTHLY;BYDAY=-1FR) or a readable rule: daily, every working day, \
                weekly on mon,thu, every 2 weeks on fri, monthly on 25, monthly on 31 (clamps to the month's end), \
                monthly on last day, monthly on last working day, monthly on first working day, monthly on 2nd tue, \
                quarterly on 15, every 3 months on 1, yearly on 03-01, yearly on 02-29 (28 Feb in other years).
                """,
            example: "capital rule expand \"monthly on 25\" --start 2025-01-01 --until 2025-12-31 --calendar RU --adjust preceding")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "RRULE text or a readable rule.") var rule: String
        @Option(help: ArgumentHelp("The rule's start (DTSTART), YYYY-MM-DD.", valueName: "date")) var start: String
        @Option(help: ArgumentHelp("The last day to show (YYYY-MM-DD, or YYYY-MM for its last day).", valueName: "date")) var until: String
        @Option(help: ArgumentHelp("Working-day calendar: RU, US or none.", valueName: "name")) var calendar = "none"
        @Option(help: ArgumentHelp("none, following, preceding, modified-following, modified-preceding or skip.", valueName: "adjustment"))
        var adjust: BusinessDayAdjustment?

        func run() throws {
            let first = try parseDay(start, field: "--start")
            let last = try parseDay(until, field: "--until", monthAs: .endOfMonth)
            guard last >= first else { throw CLIError.invalid("--until", until, "it is before --start \(start)") }
            let calendar = try shippedCalendar(self.calendar)
            let parsed = try parseRule(rule, calendar: calendar.name, adjustment: adjust)
            do { try parsed.validate(start: first) } catch { throw CLIError("RULE '\(rule)': \(spelled(error))", exitCode: 64) }
            let dates = parsed.days(start: first, through: last, calendar: calendar)
            if try global.outputFormat() == .table { Console.current.line(Report.ruleLine(parsed, calendar: calendar)) }
            try global.print(Report.ruleDates(parsed, dates))
        }
    }
}
