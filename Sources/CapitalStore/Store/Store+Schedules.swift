import CapitalCore
import Foundation
import GRDB

/// A schedule as a user writes it (`schedule add`, a ledger file).
public struct ScheduleInput: Sendable {
    public var name: String
    public var note = ""
    /// A readable rule or RRULE text.
    public var rule: String
    /// nil: the ledger's calendar.
    public var calendar: String?
    /// nil: what the rule implies (`last working day`: preceding), else none.
    public var adjustment: BusinessDayAdjustment?
    public var start: Day
    public var end: Day?
    public var count: Int?
    public var approval: Schedule.Approval = .auto
    /// `500` or `250..500`, with `from` and `to`; or nil with `postings`.
    public var amount: String?
    public var expected: String?
    public var from: String?
    public var to: String?
    public var postings: [PostingInput] = []
    /// Also post the occurrences between the start and today (normally those are taken as
    /// already recorded).
    public var backfill = false

    public init(name: String, rule: String, start: Day) {
        self.name = name
        self.rule = rule
        self.start = start
    }
}

/// Which occurrences an edit or a removal applies to, as calendar apps ask.
public enum ScheduleScope: Sendable, Equatable {
    /// Only the occurrence on this day.
    case one(Day)
    /// This occurrence and every later one: the schedule is split in two; history stays.
    case future(Day)
    /// The whole schedule.
    case all
}

/// Changes to a schedule; nil leaves a field as it is.
public struct ScheduleChanges: Sendable {
    public var name: String?
    public var note: String?
    public var rule: String?
    public var calendar: String?
    public var adjustment: BusinessDayAdjustment?
    public var amount: String?
    public var expected: String?
    public var approval: Schedule.Approval?
    public var end: Day??
    /// With `.one`: move the occurrence to this day.
    public var moveTo: Day?
    public init() {}

    var isEmpty: Bool {
        name == nil && note == nil && rule == nil && calendar == nil && adjustment == nil && amount == nil && expected == nil
            && approval == nil && end == nil && moveTo == nil
    }
}

extension Store {
    // MARK: Reading

    /// Every live schedule, in the order they were added.
    public func schedules() throws(StoreError) -> [Schedule] {
        try read("listing schedules") { db in try Store.fetchSchedules(db) }
    }

    /// A schedule by name (case-insensitive) or unique id prefix.
    public func schedule(_ reference: String) throws(StoreError) -> Schedule {
        try read("finding a schedule") { db in try Store.resolveSchedule(db, reference) }
    }

    /// The working-day calendar `name` with the ledger's own holidays and working days added.
    public func calendar(_ name: String) throws(StoreError) -> WorkingDayCalendar {
        if let file = resolvedFile { return try file.calendar(name) }
        return try read("reading calendars") { db in try Store.workingDayCalendar(db, name) }
    }

    /// The calendar schedules use unless they name one (`none` until set): the one
    /// `Rule.ledgerCalendar` stands for.
    public func defaultCalendar() throws(StoreError) -> String {
        if let file = resolvedFile { return file.defaultCalendar }
        return try read("reading settings") { db in try Store.setting(db, "calendar") ?? "none" }
    }

    // MARK: Writing

    /// Adds a schedule. Occurrences before today count as already recorded unless `backfill`.
    @discardableResult
    public func addSchedule(_ input: ScheduleInput, today: Day) throws(StoreError) -> Schedule {
        try write("adding schedule '\(input.name)'") { db in
            let (schedule, handled) = try Store.buildSchedule(db, id: Store.newID(), input, today: today)
            try Store.insertSchedule(db, schedule, handledThrough: handled)
            return schedule
        }
    }

    /// Edits one occurrence, this and future ones (splitting the schedule), or all.
    ///
    /// A change of rule, calendar or adjustment moves the days; occurrences of the new days before
    /// `today` are taken as handled, so `post` does not post the past again under the new rule.
    /// - Returns: the schedule as it now stands (for `.future`, the new second half).
    @discardableResult
    public func editSchedule(_ reference: String, _ changes: ScheduleChanges, scope: ScheduleScope, today: Day) throws(StoreError) -> Schedule {
        let movesDays = changes.rule != nil || changes.calendar != nil || changes.adjustment != nil
        if changes.isEmpty { throw .malformed(field: "schedule edit", value: reference, reason: "nothing to change; give at least one field") }
        return try write("editing schedule '\(reference)'") { db in
            let schedule = try Store.resolveSchedule(db, reference)
            let calendar = try Store.workingDayCalendar(db, schedule.rule.calendar)
            switch scope {
            case .one(let at):
                let occurrence = try Store.occurrence(of: schedule, at: at, calendar: calendar)
                let others =
                    [changes.name, changes.note, changes.rule, changes.calendar, changes.expected].contains { $0 != nil }
                    || changes.adjustment != nil || changes.approval != nil || changes.end != nil
                if others { throw StoreError.malformed(field: "{scope}", value: "one", reason: "one occurrence takes only {amount} and {moveTo}") }
                var exception = schedule.exceptions.first { $0.original == occurrence.original } ?? .init(original: occurrence.original)
                if let text = changes.amount {
                    let model = try Store.amountModel(text, expected: nil, currency: schedule.currency, field: "{amount}")
                    guard model.isFixed else {
                        throw StoreError.malformed(field: "{amount}", value: text, reason: "one occurrence takes a single amount")
                    }
                    exception.amount = model.expected
                }
                if let to = changes.moveTo { exception.movedTo = to }
                try Store.saveException(db, schedule.id, exception)
                try Store.touchSchedule(db, schedule.id)
                return try Store.resolveSchedule(db, schedule.id)
            case .all:
                if let to = changes.moveTo {
                    throw StoreError.malformed(field: "{moveTo}", value: to.iso, reason: "moves one occurrence: use {scope} one {at} DATE")
                }
                let updated = try Store.apply(changes, to: schedule, db)
                try Store.replaceSchedule(db, updated)
                if movesDays {
                    try db.cachedStatement(sql: "UPDATE schedule SET handledThrough = MAX(handledThrough, ?) WHERE id = ?").execute(arguments: [
                        today.number - 1, schedule.id,
                    ])
                }
                return updated
            case .future(let at):
                if let to = changes.moveTo {
                    throw StoreError.malformed(field: "{moveTo}", value: to.iso, reason: "moves one occurrence: use {scope} one {at} DATE")
                }
                let occurrence = try Store.occurrence(of: schedule, at: at, calendar: calendar)
                var second = try Store.apply(changes, to: schedule, db)
                second.id = Store.newID()
                second.start = occurrence.original
                second.exceptions = schedule.exceptions.filter { $0.original >= occurrence.original }
                if let count = schedule.rule.recurrence.count {
                    let before = Store.occurrenceCount(schedule, before: occurrence.original)
                    second.rule.recurrence.count = max(1, count - before)
                }
                if second.name == schedule.name { second.name = Store.uniqueName(schedule.name, db) }
                var first = schedule
                first.end = occurrence.original.advanced(by: -1)
                first.exceptions = schedule.exceptions.filter { $0.original < occurrence.original }
                try Store.replaceSchedule(db, first)
                var handled =
                    try Int.fetchOne(db.cachedStatement(sql: "SELECT handledThrough FROM schedule WHERE id = ?"), arguments: [schedule.id]) ?? 0
                if movesDays { handled = max(handled, today.number - 1) }
                try Store.insertSchedule(db, second, handledThrough: Day(handled))
                // Occurrences from the split on that were already posted, settled or skipped now belong to the second
                // half, which must not post them again.
                try db.cachedStatement(
                    sql: "UPDATE expectedMark SET instrumentId = ? WHERE kind = 'schedule' AND instrumentId = ? AND day >= ?"
                ).execute(arguments: [
                    second.id, schedule.id, occurrence.original.number,
                ])
                return second
            }
        }
    }

    /// Skips the occurrence that falls on `at`.
    public func skipOccurrence(_ reference: String, at: Day) throws(StoreError) {
        try write("skipping an occurrence of '\(reference)'") { db in
            let schedule = try Store.resolveSchedule(db, reference)
            let occurrence = try Store.occurrence(of: schedule, at: at, calendar: try Store.workingDayCalendar(db, schedule.rule.calendar))
            var exception = schedule.exceptions.first { $0.original == occurrence.original } ?? .init(original: occurrence.original)
            exception.skip = true
            try Store.saveException(db, schedule.id, exception)
            try Store.touchSchedule(db, schedule.id)
        }
    }

    /// Removes one occurrence, this and future ones (the schedule ends the day before), or the whole schedule.
    public func removeSchedule(_ reference: String, scope: ScheduleScope) throws(StoreError) {
        switch scope {
        case .one(let day):
            try skipOccurrence(reference, at: day)
        case .future(let at):
            try write("ending schedule '\(reference)'") { db in
                var schedule = try Store.resolveSchedule(db, reference)
                let occurrence = try Store.occurrence(of: schedule, at: at, calendar: try Store.workingDayCalendar(db, schedule.rule.calendar))
                schedule.end = occurrence.original.advanced(by: -1)
                try Store.replaceSchedule(db, schedule)
            }
        case .all:
            try write("removing schedule '\(reference)'") { db in
                let schedule = try Store.resolveSchedule(db, reference)
                try db.cachedStatement(sql: "UPDATE schedule SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [
                    Timestamp.now(), schedule.id,
                ])
            }
        }
    }

    /// Sets the calendar schedules use unless they name one.
    public func setDefaultCalendar(_ name: String) throws(StoreError) {
        try write("setting the calendar") { db in
            _ = try Store.workingDayCalendar(db, name)
            try Store.setSetting(db, "calendar", name)
        }
    }

    /// Adds a holiday or a working day to a calendar, for this ledger.
    public func addCalendarDay(_ calendar: String, day: Day, holiday: Bool, name: String) throws(StoreError) {
        try Store.validateText(name, field: "{name}", limit: TextLimits.name)
        try write("changing calendar '\(calendar)'") { db in
            let base = try Store.workingDayCalendar(db, calendar)
            try db.cachedStatement(
                sql:
                    "INSERT INTO calendarDay(calendar, day, kind, name) VALUES (?, ?, ?, ?) ON CONFLICT(calendar, day) DO UPDATE SET kind = excluded.kind, name = excluded.name"
            ).execute(arguments: [base.name, day.number, holiday ? "holiday" : "workday", name])
        }
    }

    /// The ledger's own calendar days: (calendar, day, holiday?, name).
    public func calendarDays() throws(StoreError) -> [(calendar: String, day: Day, holiday: Bool, name: String)] {
        try read("reading calendars") { db in try Store.fetchCalendarDays(db) }
    }

    /// The ledger's own holidays and working days, by calendar and day, inside a transaction already open.
    static func fetchCalendarDays(_ db: Database) throws -> [(calendar: String, day: Day, holiday: Bool, name: String)] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT calendar, day, kind, name FROM calendarDay ORDER BY calendar, day")).map {
            (calendar: $0["calendar"], day: Day($0["day"]), holiday: ($0["kind"] as String) == "holiday", name: $0["name"])
        }
    }

    // MARK: Helpers

    /// How a schedule's calendar is written where one is asked for: `ledger` is the ledger's
    /// calendar (`""`, stored), any other name itself.
    static func storedCalendarName(_ name: String) -> String { name.lowercased() == "ledger" ? Rule.ledgerCalendar : name }

    /// The calendar `name` with the ledger's own days; `""` (`Rule.ledgerCalendar`) is the one
    /// `calendar use` set, `none` until then.
    static func workingDayCalendar(_ db: some LedgerContext, _ name: String) throws -> WorkingDayCalendar {
        let name = name == Rule.ledgerCalendar ? try db.recordSetting("calendar") ?? "none" : name
        let base: WorkingDayCalendar
        do { base = try Calendars.named(name) } catch {
            throw StoreError.malformed(field: "calendar", value: name, reason: "unknown; capital ships \(Calendars.names.joined(separator: ", "))")
        }
        let (holidays, workdays) = try db.calendarDays(of: base.name)
        return holidays.isEmpty && workdays.isEmpty ? base : base.adding(holidays: holidays, workingDays: workdays)
    }

    static func amountModel(_ text: String, expected: String?, currency: Currency, field: String) throws -> AmountModel {
        do {
            return try AmountModel.parse(text, expected: expected, exponent: currency.exponent, code: currency.code)
        } catch AmountModelError.expectedOutside(_, let low, let high) where expected != nil {
            // Name the expected value as the user wrote it, not the range in minor units.
            let expectedField = field.hasSuffix("amount}") ? String(field.dropLast("amount}".count)) + "expected}" : field
            let range =
                Money.format(minor: low, exponent: currency.exponent, grouping: nil) + ".."
                + Money.format(minor: high, exponent: currency.exponent, grouping: nil)
            throw StoreError.malformed(
                field: expectedField, value: expected!,
                reason: low == high ? "an expected value goes with a ranged amount LOW..HIGH" : "it lies outside the range \(range)")
        } catch {
            throw StoreError.malformed(
                field: field, value: text, reason: FieldKeys.literal("\(error)".replacingOccurrences(of: "'\(text)': ", with: "")))
        }
    }

    /// The occurrence that falls on `day` (or whose rule day is `day`).
    static func occurrence(of schedule: Schedule, at day: Day, calendar: WorkingDayCalendar) throws -> ScheduleOccurrence {
        let near = schedule.occurrences(in: DayRange(day.advanced(by: -400), day.advanced(by: 401)), calendar: calendar)
        if let found = near.first(where: { $0.day == day }) ?? near.first(where: { $0.original == day }) { return found }
        let nearest = near.min { abs($0.day.number - day.number) < abs($1.day.number - day.number) }
        throw StoreError.invalid(
            field: "{at}", value: day.iso,
            reason: "'\(FieldKeys.literal(schedule.name))' has no occurrence that day\(nearest.map { "; the nearest is \($0.day)" } ?? "")")
    }

    static func occurrenceCount(_ schedule: Schedule, before day: Day) -> Int {
        var count = 0
        schedule.rule.recurrence.forEachOccurrence(start: schedule.start, in: DayRange(schedule.start, max(schedule.start, day))) { _ in count += 1 }
        return count
    }

    static func uniqueName(_ name: String, _ db: Database) -> String {
        var index = 2
        while (try? String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM schedule WHERE deleted = 0 AND nameKey = ?"), arguments: [nameKey("\(name) (\(index))")])) != nil
        {
            index += 1
        }
        return "\(name) (\(index))"
    }

    /// A stored rule: RRULE text, or a rule set's parts on one line (`Rule.rrule`).
    static func storedRule(_ text: String, adjustment: BusinessDayAdjustment, calendar: String) throws -> Rule {
        if Rule.isSet(text) {
            var rule = try Rule(parsing: text, calendar: calendar)
            rule.adjustment = adjustment
            return rule
        }
        return Rule(recurrence: try Recurrence(rrule: text), adjustment: adjustment, calendar: calendar)
    }

    static func parseRule(_ text: String, calendar: String, adjustment: BusinessDayAdjustment?, field: String) throws -> Rule {
        do {
            return try Rule(parsing: text, calendar: calendar, adjustment: adjustment)
        } catch .invalid(let part, let value, let reason) where part == "adjust" {
            throw StoreError.malformed(field: "adjust", value: value, reason: reason)
        } catch {
            throw StoreError.malformed(
                field: field, value: text,
                reason: FieldKeys.literal(
                    "\(error)".replacingOccurrences(of: "'\(text)' is not a rule capital reads; ", with: "not a rule capital reads; ")))
        }
    }

    static func buildSchedule(_ db: some LedgerContext, id: String, _ input: ScheduleInput, today: Day, accounts index: AccountIndex? = nil) throws
        -> (
            Schedule, Day
        )
    {
        try validateName(input.name, field: "name")
        try validateText(input.note, field: "{note}")
        // Without a calendar the schedule follows the ledger's, also after a later `calendar use`.
        let calendarName = input.calendar.map(storedCalendarName) ?? Rule.ledgerCalendar
        let calendar: WorkingDayCalendar
        do {
            calendar = try workingDayCalendar(db, calendarName)
        } catch StoreError.malformed(_, let value, let reason) where input.calendar != nil {
            throw StoreError.malformed(field: "{calendar}", value: value, reason: reason)  // name the option or field the user gave
        }
        var rule = try parseRule(
            input.rule, calendar: calendarName == Rule.ledgerCalendar ? Rule.ledgerCalendar : calendar.name, adjustment: input.adjustment,
            field: "{rule}")
        if let count = input.count {
            guard count > 0 else { throw StoreError.malformed(field: "{count}", value: String(count), reason: "must be at least 1") }
            if rule.recurrence.count != nil || rule.recurrence.until != nil {
                throw StoreError.malformed(field: "{count}", value: String(count), reason: "the rule already has COUNT or UNTIL")
            }
            rule.recurrence.count = count
        }
        if input.count != nil && input.end != nil {
            throw StoreError.malformed(field: "{end}", value: input.end!.iso, reason: "give an end day or a count, not both")
        }
        do { try rule.validate(start: input.start) } catch {
            throw StoreError.malformed(field: "{rule}", value: input.rule, reason: FieldKeys.literal("\(error)"))
        }
        // A schedule happens: a rule that never does (python-dateutil expands it to nothing) is a mistake here.
        if let never = rule.neverOccurs(from: input.start) { throw StoreError.malformed(field: "{rule}", value: input.rule, reason: never) }
        if let end = input.end, end < input.start {
            throw StoreError.malformed(field: "{end}", value: end.iso, reason: "it is before the start \(input.start)")
        }
        let accounts = try index ?? db.accountIndex()
        var postings: [Posting]
        var model: AmountModel?
        if let amountText = input.amount {
            guard input.postings.isEmpty, let fromRef = input.from, let toRef = input.to else {
                throw StoreError.malformed(
                    field: "{amount}", value: amountText, reason: "an amount goes with from and to accounts (or give postings instead)")
            }
            let from = try accounts.resolve(fromRef)
            let to = try accounts.resolve(toRef)
            guard from.currency == to.currency else {
                throw StoreError.currencyMismatch(account: to.name, accountCurrency: to.currency.code, amountCurrency: from.currency.code)
            }
            guard from.id != to.id else { throw StoreError.invalid(field: "{to}", value: to.name, reason: "it is the same account as from") }
            model = try amountModel(amountText, expected: input.expected, currency: from.currency, field: "{amount}")
            postings = [
                Posting(accountID: to.id, amount: Money(minor: model!.expected, currency: to.currency)),
                Posting(accountID: from.id, amount: Money(minor: -model!.expected, currency: from.currency)),
            ]
            if model!.isFixed {
                model = nil
            } else if model!.expected == 0 && model!.high == 0 {
                throw StoreError.malformed(field: "{amount}", value: amountText, reason: "a schedule must move some money")
            }
            if model == nil && postings[0].amount.minor == 0 {
                throw StoreError.malformed(field: "{amount}", value: amountText, reason: "a schedule must move some money")
            }
        } else {
            if input.from != nil || input.to != nil {
                throw StoreError.malformed(field: "{amount}", value: "", reason: "from and to need an amount")
            }
            if input.expected != nil {
                throw StoreError.malformed(field: "{expected}", value: input.expected!, reason: "an expected value goes with a ranged amount")
            }
            guard input.postings.count >= 2 else {
                throw StoreError.malformed(field: "{posting}", value: "", reason: "give {amount} with {from} and {to}, or at least 2 postings")
            }
            do {
                postings = try build(accounts, id: id, TransactionInput(day: input.start, postings: input.postings)).postings
            } catch StoreError.ledger(let error) {
                throw StoreError.invalid(
                    field: "{posting}", value: input.postings.map { $0.account }.joined(separator: ", "), reason: FieldKeys.literal("\(error)"))
            }
        }
        let schedule = Schedule(
            id: id, name: input.name, note: input.note, postings: postings, amount: model, rule: rule, start: input.start, end: input.end,
            approval: input.approval)
        let handled = input.backfill || input.start >= today ? input.start.advanced(by: -1) : today.advanced(by: -1)
        return (schedule, handled)
    }

    static func apply(_ changes: ScheduleChanges, to schedule: Schedule, _ db: Database) throws -> Schedule {
        var updated = schedule
        if let name = changes.name { try validateName(name, field: "{name}"); updated.name = name }
        if let note = changes.note { try validateText(note, field: "{note}"); updated.note = note }
        if changes.rule != nil || changes.calendar != nil || changes.adjustment != nil {
            let calendar: String
            do {
                calendar =
                    try changes.calendar.map(storedCalendarName).map { $0 == Rule.ledgerCalendar ? $0 : try workingDayCalendar(db, $0).name }
                    ?? schedule.rule.calendar
            } catch StoreError.malformed(_, let value, let reason) {
                throw StoreError.malformed(field: "{calendar}", value: value, reason: reason)  // name the option or field the user gave
            }
            if let text = changes.rule {
                var rule = try parseRule(text, calendar: calendar, adjustment: changes.adjustment, field: "{rule}")
                if rule.recurrence.count == nil { rule.recurrence.count = schedule.rule.recurrence.count }
                updated.rule = rule
            } else {
                updated.rule.calendar = calendar
                if let adjustment = changes.adjustment { updated.rule.adjustment = adjustment }
            }
            do { try updated.rule.validate(start: updated.start) } catch {
                throw StoreError.invalid(field: "{rule}", value: changes.rule ?? updated.rule.text, reason: FieldKeys.literal("\(error)"))
            }
            if let never = updated.rule.neverOccurs(from: updated.start) {
                throw StoreError.invalid(field: "{rule}", value: changes.rule ?? updated.rule.text, reason: never)
            }
        }
        if let text = changes.amount {
            guard updated.amount != nil || updated.postings.count == 2 else {
                throw StoreError.invalid(
                    field: "{amount}", value: text,
                    reason: "this schedule has split postings; change them with {scope} one, or remove and add it again")
            }
            let model = try amountModel(text, expected: changes.expected, currency: schedule.currency, field: "{amount}")
            updated.amount = model.isFixed ? nil : model
            updated.postings[0].amount.minor = model.expected
            updated.postings[1].amount.minor = -model.expected
        } else if let expected = changes.expected {
            guard let current = updated.amount else {
                throw StoreError.invalid(field: "{expected}", value: expected, reason: "an expected value goes with a ranged amount")
            }
            let text = current.text(exponent: schedule.currency.exponent)
            updated.amount = try amountModel(text, expected: expected, currency: schedule.currency, field: "{expected}")
        }
        if let approval = changes.approval { updated.approval = approval }
        if let end = changes.end {
            if let end, end < updated.start {
                throw StoreError.invalid(field: "{end}", value: end.iso, reason: "it is before the start \(updated.start)")
            }
            updated.end = end
        }
        return updated
    }

    /// - Parameter position: its place in listings; default after every other. (`MAX(position)`
    ///   reads the whole table: an import of many schedules finds it once and counts on.)
    static func insertSchedule(_ db: Database, _ schedule: Schedule, handledThrough: Day, position given: Int? = nil) throws {
        if try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM schedule WHERE deleted = 0 AND nameKey = ?"), arguments: [nameKey(schedule.name)]) != nil
        {
            throw StoreError.duplicateName(what: "schedule", name: schedule.name)
        }
        let position = try given ?? nextSchedulePosition(db)
        let now = Timestamp.now()  // converted once, used for createdAt and updatedAt
        try db.cachedStatement(
            sql: """
                INSERT INTO schedule(id, createdAt, updatedAt, name, nameKey, note, rule, adjustment, calendar, start, "end", approval,
                amountLow, amountHigh, amountExpected, handledThrough, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            schedule.id, now, now, schedule.name, nameKey(schedule.name), schedule.note, schedule.rule.rrule,
            schedule.rule.adjustment.rawValue, schedule.rule.calendar, schedule.start.number, schedule.end?.number,
            schedule.approval.rawValue, schedule.amount?.low, schedule.amount?.high, schedule.amount?.expected,
            handledThrough.number, position,
        ])
        try insertScheduleParts(db, schedule)
    }

    /// The position after every schedule's (removed ones included).
    static func nextSchedulePosition(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(position), 0) + 1 FROM schedule")) ?? 1
    }

    private static func insertScheduleParts(_ db: Database, _ schedule: Schedule) throws {
        for (position, posting) in schedule.postings.enumerated() {
            try db.cachedStatement(
                sql: "INSERT INTO schedulePosting(scheduleId, position, accountId, amountMinor, currency, note) VALUES (?, ?, ?, ?, ?, ?)"
            ).execute(arguments: [schedule.id, position, posting.accountID, posting.amount.minor, posting.amount.currency.code, posting.note])
        }
        for exception in schedule.exceptions { try saveException(db, schedule.id, exception) }
    }

    /// Rewrites a schedule's fields, postings and exceptions (same id).
    static func replaceSchedule(_ db: Database, _ schedule: Schedule) throws {
        if try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM schedule WHERE deleted = 0 AND nameKey = ? AND id != ?"),
            arguments: [nameKey(schedule.name), schedule.id]) != nil
        {
            throw StoreError.duplicateName(what: "schedule", name: schedule.name)
        }
        try db.cachedStatement(
            sql: """
                UPDATE schedule SET name = ?, nameKey = ?, note = ?, rule = ?, adjustment = ?, calendar = ?, start = ?, "end" = ?,
                approval = ?, amountLow = ?, amountHigh = ?, amountExpected = ?, updatedAt = ?, version = version + 1 WHERE id = ?
                """
        ).execute(arguments: [
            schedule.name, nameKey(schedule.name), schedule.note, schedule.rule.rrule, schedule.rule.adjustment.rawValue,
            schedule.rule.calendar, schedule.start.number, schedule.end?.number, schedule.approval.rawValue, schedule.amount?.low,
            schedule.amount?.high, schedule.amount?.expected, Timestamp.now(), schedule.id,
        ])
        try db.cachedStatement(sql: "DELETE FROM schedulePosting WHERE scheduleId = ?").execute(arguments: [schedule.id])
        try db.cachedStatement(sql: "DELETE FROM scheduleException WHERE scheduleId = ?").execute(arguments: [schedule.id])
        try insertScheduleParts(db, schedule)
    }

    static func saveException(_ db: Database, _ scheduleID: String, _ exception: Schedule.Exception) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO scheduleException(scheduleId, original, skip, movedTo, amountMinor) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(scheduleId, original) DO UPDATE SET skip = excluded.skip, movedTo = excluded.movedTo, amountMinor = excluded.amountMinor
                """
        ).execute(arguments: [scheduleID, exception.original.number, exception.skip, exception.movedTo?.number, exception.amount])
    }

    static func touchSchedule(_ db: Database, _ id: String) throws {
        try db.cachedStatement(sql: "UPDATE schedule SET updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [Timestamp.now(), id])
    }

    static func fetchSchedules(_ db: Database, ids: [String]? = nil) throws -> [Schedule] {
        let filter = ids.map { "AND id IN (\($0.map { _ in "?" }.joined(separator: ",")))" } ?? ""
        let partFilter = ids.map { "WHERE scheduleId IN (\($0.map { _ in "?" }.joined(separator: ",")))" } ?? ""
        let partArguments = StatementArguments(ids ?? [])
        var postings: [String: [Posting]] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM schedulePosting \(partFilter) ORDER BY scheduleId, position"), arguments: partArguments)
        {
            postings[row["scheduleId"], default: []].append(
                Posting(
                    accountID: row["accountId"], amount: Money(minor: row["amountMinor"], currency: try Currency(row["currency"] as String)),
                    note: row["note"]))
        }
        var exceptions: [String: [Schedule.Exception]] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM scheduleException \(partFilter) ORDER BY scheduleId, original"), arguments: partArguments)
        {
            exceptions[row["scheduleId"], default: []].append(
                .init(original: Day(row["original"]), skip: row["skip"], movedTo: (row["movedTo"] as Int?).map(Day.init), amount: row["amountMinor"]))
        }
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM schedule WHERE deleted = 0 \(filter) ORDER BY position"), arguments: StatementArguments(ids ?? [])
        ).map {
            row in
            let id: String = row["id"]
            let ruleText: String = row["rule"]
            let adjustmentText: String = row["adjustment"]
            let approvalText: String = row["approval"]
            guard let adjustment = BusinessDayAdjustment(rawValue: adjustmentText), let approval = Schedule.Approval(rawValue: approvalText) else {
                throw StoreError.unreadable(
                    path: nil, field: "schedule \(id)", value: "\(adjustmentText)/\(approvalText)",
                    reason: "an adjustment or approval capital does not know")
            }
            var model: AmountModel?
            if let low = row["amountLow"] as Int64?, let high = row["amountHigh"] as Int64? {
                model = try AmountModel(low: low, high: high, expected: row["amountExpected"])
            }
            return Schedule(
                id: id, name: row["name"], note: row["note"], postings: postings[id] ?? [], amount: model,
                rule: try storedRule(ruleText, adjustment: adjustment, calendar: row["calendar"]),
                start: Day(row["start"]), end: (row["end"] as Int?).map(Day.init), approval: approval, exceptions: exceptions[id] ?? [])
        }
    }

    static func resolveSchedule(_ db: Database, _ reference: String) throws -> Schedule {
        let schedules = try fetchSchedules(db)
        if let byName = schedules.first(where: { nameKey($0.name) == nameKey(reference) }) { return byName }
        let matches = idPrefixMatches(reference, in: schedules, id: \.id)
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw StoreError.ambiguous(what: "schedule", reference: reference, candidates: matches.map { "\(shortID($0.id)) (\($0.name))" })
        }
        throw StoreError.notFound(what: "schedule", reference: reference, hint: .list("schedule"))
    }
}
