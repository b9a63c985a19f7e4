import CapitalCore
import CapitalKit
import CapitalStore
import Foundation
import Testing

/// The overview picks its few flows (the why's drivers and relief, the chart's marks) in one walk
/// over the flows without keeping them: checked against the whole sorted list of flows
/// (`Projection.flows`), filtered and sorted the plain way, on the sample and on a generated ledger
/// with hundreds of thousands of flows.
@Suite("CapitalKit: overview")
struct OverviewTests {
    static func sample() throws -> Projection { ProjectionTests.projection }

    /// `sample generate --rules 60 --years 5`, over its five years.
    static func generated() throws -> Projection {
        let sample = try SampleLedger.generate(rules: 60, years: 5, currency: try Currency("RUB"))
        var extras = LedgerExtras()
        for (id, state) in sample.scheduleStates { extras.handledThrough[id] = state.handledThrough }
        let yaml = LedgerFile.write(sample, defaultAccountID: sample.defaultAccountID, format: .yaml, extras: extras)
        let store = try Store.inMemory()
        _ = try store.importDocument(try LedgerFile.parse(yaml, file: "generated.yaml"))
        return try Projection(store: store, today: SampleLedger.defaultStart, horizon: { $0.addingMonths(60) })
    }

    /// Larger amounts first, then earlier days, then smaller amounts: the order of the chart's marks.
    static func largestFirst(_ a: FlowEvent, _ b: FlowEvent) -> Bool {
        (a.amount.magnitude, b.day, b.amount) > (b.amount.magnitude, a.day, a.amount)
    }

    static func check(_ projection: Projection, level: Int = 4) throws {
        let overview = try projection.overview(OverviewRequest(level: level))
        let events = projection.flows(into: overview.pool, from: projection.today, through: projection.horizon, overview.forecastCase)
        #expect(!events.isEmpty)
        // The why: the three largest outflows up to the binding day, the first inflow after it.
        let binding = overview.canSpend.answer.bindingDay
        let drivers = Array(events.filter { $0.day <= binding && $0.amount < 0 }.sorted { $0.amount < $1.amount }.prefix(3))
        let relief = events.first { $0.day > binding && $0.amount > 0 }
        let why = try #require(overview.canSpend.why)
        #expect(why.drivers == drivers)
        #expect(why.relief == relief)
        // `can-spend --why` picks the same.
        let answer = try #require(try projection.canSpend(on: projection.today, levels: [level], why: true, overview.forecastCase).first)
        #expect(answer.why?.drivers == drivers && answer.why?.relief == relief)
        // The marks: each month's largest inflow (the twelve largest past 24 months) and the twelve largest outflows.
        var months: [Int: [FlowEvent]] = [:]
        for event in events where event.amount > 0 { months[event.day.civil.year * 12 + event.day.civil.month, default: []].append(event) }
        var paydays = months.keys.sorted().compactMap { months[$0]!.sorted(by: largestFirst).first }
        if paydays.count > 24 { paydays = Array(paydays.sorted(by: largestFirst).prefix(12)) }
        let outflows = events.filter { $0.amount < 0 }.sorted(by: largestFirst).prefix(12)
        let landmarks = (paydays + outflows).sorted { ($0.day, $0.amount) < ($1.day, $1.amount) }
        #expect(overview.landmarks == landmarks)
        #expect(!overview.landmarks.isEmpty)
    }

    @Test func theSamplesWhyAndMarksAreThoseOfTheWholeListOfFlows() throws {
        try Self.check(try Self.sample())
        try Self.check(try Self.sample(), level: 5)
    }

    @Test func aGeneratedLedgersWhyAndMarksAreThoseOfTheWholeListOfFlows() throws {
        let projection = try Self.generated()
        #expect(
            projection.flows(into: try projection.pool(level: 4), from: projection.today, through: projection.horizon, .pessimistic).count > 10_000)
        try Self.check(projection)
    }

    @Test func roundAmountsStartAboveTheAnswer() throws {
        let overview = try Self.sample().overview(OverviewRequest())
        let amounts = overview.affordable.map(\.amount.minor)
        #expect(amounts == [10_000_000, 20_000_000, 50_000_000, 100_000_000])
        #expect(amounts.allSatisfy { $0 > overview.canSpend.answer.amount })
        for when in overview.affordable {
            #expect(when.day == (try Self.sample().when(when.amount, level: 4, .pessimistic)).day)
        }
    }
}
