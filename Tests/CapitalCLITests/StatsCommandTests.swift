import Foundation
import Testing

/// `capital stats` on the household sample against sums taken here from the sample file by
/// `HouseholdSample`'s own line reader (no capital code), in kopecks: ISO dates compare as text,
/// spending is what was posted to expense accounts, income what was taken from income accounts.
@Suite("CLI: stats")
struct StatsCommandTests {
    static let sample: HouseholdSample = {
        let text = String(decoding: FileManager.default.contents(atPath: CLI.samplePath) ?? Data(), as: UTF8.self)
        return HouseholdSample(text: text)
    }()

    static let today = "2025-03-20"

    // MARK: Reference

    /// Kopecks a transaction's postings give each category, signed as statistics count them.
    static func flows(_ transaction: HouseholdSample.Transaction, kind: String) -> [(account: String, amount: Int64)] {
        transaction.postings.filter { sample.kind(of: $0.account) == kind }.map { ($0.account, kind == "income" ? -$0.amount : $0.amount) }
    }

    /// Per category of `kind`: total and transaction count over transactions passing `keep`.
    static func categories(_ kind: String, _ keep: (HouseholdSample.Transaction) -> Bool) -> [String: (amount: Int64, count: Int)] {
        var result: [String: (amount: Int64, count: Int)] = [:]
        for transaction in sample.transactions where keep(transaction) {
            let flows = flows(transaction, kind: kind)
            for flow in flows { result[flow.account, default: (0, 0)].amount += flow.amount }
            for account in Set(flows.map(\.account)) { result[account, default: (0, 0)].count += 1 }
        }
        return result
    }

    static func total(_ kind: String, _ keep: (HouseholdSample.Transaction) -> Bool) -> Int64 {
        categories(kind, keep).values.map(\.amount).reduce(0, +)
    }

    /// The month of the sample's first transaction (`YYYY-MM`), and the months from it through
    /// `last` (a `YYYY-MM`), counted on the calendar here: what averages divide by (issue 17,
    /// case 12: a ledger younger than the range averages over the months it covers).
    static var firstMonth: String { String(sample.transactions.map(\.date).min()!.prefix(7)) }
    static func months(from first: String = firstMonth, through last: String) -> Int64 {
        func number(_ month: String) -> Int64 { Int64(month.prefix(4))! * 12 + Int64(month.suffix(2))! }
        return number(last) - number(first) + 1
    }

    static func between(_ first: String, _ last: String) -> (HouseholdSample.Transaction) -> Bool {
        { $0.date >= first && $0.date <= last }
    }

    /// Half up, halves away from zero, for a positive divisor.
    static func halfUp(_ value: Int64, _ divisor: Int64) -> Int64 {
        let magnitude = (2 * abs(value) + divisor) / (2 * divisor)
        return value < 0 ? -magnitude : magnitude
    }

    /// Basis points as the ratio text CSV shows: 3340 → "0.3340".
    static func ratio(_ basisPoints: Int64) -> String {
        let fraction = String(basisPoints % 10_000)
        return "\(basisPoints / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    static func kopecks(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let text = try #require(value as? String, sourceLocation: sourceLocation)
        return try #require(minorUnits(text), sourceLocation: sourceLocation)
    }

    // MARK: By category

    @Test("by category, default 12 months: every category's amount, count and monthly average equal the sample's postings")
    func byCategoryEqualsTheSample() throws {
        let cli = try CLI.household()
        let object = try #require(try cli.json(["--today", Self.today, "stats"]) as? [String: Any])
        #expect(object["by"] as? String == "category")
        #expect(object["from"] as? String == "2024-04-01")
        #expect(object["to"] as? String == "2025-03-20")
        let months = Self.months(through: "2025-03")
        #expect(Self.firstMonth > "2024-04", "the sample starts after the range, or this proves nothing")
        #expect(object["months"] as? Int == Int(months))
        #expect(object["recordsFrom"] as? String == Self.firstMonth + "-01")
        #expect(object["currency"] as? String == "RUB")
        let inRange = Self.between("2024-04-01", "2025-03-20")
        for kind in ["expense", "income"] {
            let expected = Self.categories(kind, inRange)
            let breakdown = try #require(object[kind] as? [String: Any])
            let rows = try #require(breakdown["categories"] as? [[String: Any]])
            #expect(Set(rows.compactMap { $0.string("category") }) == Set(expected.keys), "\(kind)")
            for row in rows {
                let name = try #require(row.string("category"))
                let amount = try Self.kopecks(row["amount"])
                #expect(amount == expected[name]?.amount, "\(name)")
                #expect(row["transactions"] as? Int == expected[name]?.count, "\(name)")
                #expect(try Self.kopecks(row["monthlyAverage"]) == Self.halfUp(amount, months), "\(name)")
            }
            let total = Self.total(kind, inRange)
            #expect(try Self.kopecks(breakdown["total"]) == total)
            #expect(try Self.kopecks(breakdown["monthlyAverage"]) == Self.halfUp(total, months))
            #expect(total > 0)
        }
        #expect(try Self.kopecks(object["net"]) == Self.total("income", inRange) - Self.total("expense", inRange))
        #expect((object["leftOut"] as? [Any])?.isEmpty == true)
    }

    @Test("shares are basis points of the kind's total, rounded half up (CSV shows them as ratios)")
    func sharesInCSV() throws {
        let cli = try CLI.household()
        let csv = cli.ok(["--today", Self.today, "stats", "--from", "2025-01", "--format", "csv"])
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(
            lines.first == [
                "section", "category", "amount", "share", "monthlyAverage", "transactions", "thisMonth", "lastMonth", "average",
                "changeFromLastMonth", "changeFromAverage",
            ])
        let inRange = Self.between("2025-01-01", "2025-03-20")
        for (section, kind) in [("spending", "expense"), ("income", "income")] {
            let expected = Self.categories(kind, inRange)
            let total = Self.total(kind, inRange)
            let rows = lines.filter { $0.first == section }
            #expect(rows.count == expected.count)
            for row in rows {
                let amount = try #require(expected[row[1]]?.amount)
                #expect(minorUnits(row[2]) == amount, "\(row[1])")
                #expect(row[3] == Self.ratio(Self.halfUp(amount * 10_000, total)), "\(row[1]) share")
                #expect(minorUnits(row[4]) == Self.halfUp(amount, 3), "\(row[1]) monthly average over 3 months")
            }
        }
    }

    @Test("this month to date against last month and the average of the full months before")
    func comparisonEqualsTheSample() throws {
        let cli = try CLI.household()
        let object = try #require(try cli.json(["--today", Self.today, "stats", "--from", "2024-12-10"]) as? [String: Any])
        let comparison = try #require(object["comparison"] as? [String: Any])
        #expect(comparison["month"] as? String == "2025-03")
        #expect(comparison["lastMonth"] as? String == "2025-02")
        let averageOf = try #require(comparison["averageOf"] as? [String: Any])
        // December is partial (from the 10th): January and February are the full months before March.
        #expect(averageOf["months"] as? Int == 2)
        #expect(averageOf["from"] as? String == "2025-01-01")
        #expect(averageOf["to"] as? String == "2025-02-28")
        let thisMonth = Self.categories("expense", Self.between("2025-03-01", "2025-03-20"))
        let lastMonth = Self.categories("expense", Self.between("2025-02-01", "2025-02-28"))
        let averaged = Self.categories("expense", Self.between("2025-01-01", "2025-02-28"))
        let rows = try #require(comparison["categories"] as? [[String: Any]])
        #expect(Set(rows.compactMap { $0.string("category") }) == Set(thisMonth.keys).union(lastMonth.keys).union(averaged.keys))
        for row in rows {
            let name = try #require(row.string("category"))
            let this = thisMonth[name]?.amount ?? 0
            let last = lastMonth[name]?.amount ?? 0
            let average = Self.halfUp(averaged[name]?.amount ?? 0, 2)
            #expect(try Self.kopecks(row["thisMonth"]) == this, "\(name)")
            #expect(try Self.kopecks(row["lastMonth"]) == last, "\(name)")
            #expect(try Self.kopecks(row["average"]) == average, "\(name)")
            #expect(try Self.kopecks(row["changeFromLastMonth"]) == this - last, "\(name)")
            #expect(try Self.kopecks(row["changeFromAverage"]) == this - average, "\(name)")
        }
        let total = try #require(comparison["total"] as? [String: Any])
        #expect(try Self.kopecks(total["thisMonth"]) == Self.total("expense", Self.between("2025-03-01", "2025-03-20")))
        #expect(try Self.kopecks(total["lastMonth"]) == Self.total("expense", Self.between("2025-02-01", "2025-02-28")))
        #expect(try Self.kopecks(total["average"]) == Self.halfUp(Self.total("expense", Self.between("2025-01-01", "2025-02-28")), 2))
    }

    // MARK: By month and by spender

    @Test("by month: every month of the range, empty ones at zero, sums equal the sample's")
    func byMonthEqualsTheSample() throws {
        let cli = try CLI.household()
        let object = try #require(
            try cli.json(["--today", Self.today, "stats", "--by", "month", "--from", "2024-11-15", "--to", "2025-03"]) as? [String: Any])
        let trend = try #require(object["trend"] as? [[String: Any]])
        #expect(trend.compactMap { $0.string("month") } == ["2024-11", "2024-12", "2025-01", "2025-02", "2025-03"])
        #expect(trend.first?.string("from") == "2024-11-15")
        #expect(trend.last?.string("to") == "2025-03-31")
        for row in trend {
            let month = try #require(row.string("month"))
            let inMonth: (HouseholdSample.Transaction) -> Bool = { $0.date >= "2024-11-15" && $0.date.hasPrefix(month) }
            let income = Self.total("income", inMonth)
            let expense = Self.total("expense", inMonth)
            #expect(try Self.kopecks(row["income"]) == income, "\(month)")
            #expect(try Self.kopecks(row["expense"]) == expense, "\(month)")
            #expect(try Self.kopecks(row["net"]) == income - expense, "\(month)")
            let count = Self.sample.transactions.filter {
                inMonth($0) && $0.postings.contains { Self.sample.kind(of: $0.account).map(["income", "expense"].contains) == true }
            }.count
            #expect(row["transactions"] as? Int == count, "\(month)")
        }
        #expect(try Self.kopecks(trend[0]["expense"]) == 0)
        #expect(try Self.kopecks(trend[1]["income"]) == 0)
        let inRange = Self.between("2024-11-15", "2025-03-31")
        let total = try #require(object["total"] as? [String: Any])
        #expect(try Self.kopecks(total["expense"]) == Self.total("expense", inRange))
        #expect(try Self.kopecks(total["income"]) == Self.total("income", inRange))
        let average = try #require(object["monthlyAverage"] as? [String: Any])
        #expect(try Self.kopecks(average["expense"]) == Self.halfUp(Self.total("expense", inRange), 5))
        #expect(try Self.kopecks(average["net"]) == Self.halfUp(Self.total("income", inRange) - Self.total("expense", inRange), 5))
    }

    @Test("by spender on one account: only transactions touching it, their category postings per spender")
    func bySpenderOnAnAccount() throws {
        let cli = try CLI.household()
        let object = try #require(try cli.json(["--today", Self.today, "stats", "--by", "spender", "--account", "Tinkoff Card"]) as? [String: Any])
        #expect(object["account"] as? String == "Tinkoff Card")
        let rows = try #require(object["spenders"] as? [[String: Any]])
        let onCard: (HouseholdSample.Transaction) -> Bool = { t in
            t.date >= "2024-04-01" && t.date <= Self.today && t.postings.contains { $0.account == "Tinkoff Card" }
        }
        let spenders = Set(Self.sample.transactions.filter { onCard($0) && !Self.flows($0, kind: "expense").isEmpty }.map(\.spender))
        #expect(Set(rows.map { ($0["spender"] as? String) ?? "" }) == spenders)
        let total = Self.total("expense", onCard)
        for row in rows {
            let name = (row["spender"] as? String) ?? ""
            let theirs: (HouseholdSample.Transaction) -> Bool = { onCard($0) && $0.spender == name }
            #expect(try Self.kopecks(row["expense"]) == Self.total("expense", theirs), "\(name)")
            #expect(try Self.kopecks(row["income"]) == Self.total("income", theirs), "\(name)")
        }
        #expect(try Self.kopecks((object["total"] as? [String: Any])?["expense"]) == total)
        // Card paybacks are transfers: without the filter, spending is larger.
        let all = try #require(try cli.json(["--today", Self.today, "stats", "--by", "spender"]) as? [String: Any])
        #expect(try Self.kopecks((all["total"] as? [String: Any])?["expense"]) == Self.total("expense", Self.between("2024-04-01", Self.today)))
        #expect(try Self.kopecks((all["total"] as? [String: Any])?["expense"]) > total)
        #expect((all["spenders"] as? [[String: Any]])?.contains { $0["spender"] is NSNull } == true, "a spender-less transaction is null in JSON")
    }

    // MARK: Output

    @Test("the ledger file and the imported database give the same figures")
    func fileEqualsDatabase() throws {
        let cli = try CLI.household()
        for by in ["category", "month", "spender"] {
            let args = ["--today", Self.today, "stats", "--by", by, "--format", "json"]
            #expect(cli.ok(["-f", CLI.samplePath] + args) == cli.ok(args), "\(by)")
        }
    }

    @Test("tables: headings, totals, percentages, the net line; --chart adds bars; --hide-amounts hides amounts")
    func tables() throws {
        let cli = try CLI.household()
        let table = cli.ok(["--today", Self.today, "stats", "--chart"])
        let months = Self.months(through: "2025-03")
        #expect(table.hasPrefix("Statistics 2024-04-01 to 2025-03-20 (averaged over \(months) months: records start in \(Self.firstMonth)), RUB\n"))
        for part in [
            "Spending by category", "Income by category", "█", "Spending\n", "Income\n", "Share", "100.00 %", "Total", "Net (income − spending): ",
        ] {
            #expect(table.contains(part), "\(part)")
        }
        #expect(
            table.contains(
                "Spending this month (2025-03-01 to 2025-03-20) against last month (2025-02) and the average of \(months - 1) full months (\(Self.firstMonth) to 2025-02)"
            ))
        let hidden = cli.ok(["--today", Self.today, "stats", "--by", "month", "--hide-amounts"])
        #expect(hidden.contains("***") && !hidden.contains("330 000.00"))
        #expect(!cli.ok(["--today", Self.today, "stats", "--by", "spender"]).contains("█"))
        // --chart is for tables: JSON stays JSON.
        let json = cli.ok(["--today", Self.today, "stats", "--chart", "--format", "json"])
        #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil)
    }

    // MARK: Bad input

    struct Bad: Sendable, CustomTestStringConvertible {
        var args: [String]
        var mentions: [String]
        var testDescription: String { args.joined(separator: " ") }
    }

    static let bad: [Bad] = [
        Bad(args: ["stats", "--from", "2025-03-01", "--to", "2025-02-01"], mentions: ["--from '2025-03-01'", "is after --to 2025-02-01"]),
        Bad(args: ["stats", "--from", "2025-04-01"], mentions: ["--from '2025-04-01'", "is after --to 2025-03-20 (today)"]),
        Bad(args: ["stats", "--from", "2025-02-30"], mentions: ["--from", "'2025-02-30'", "that month has days 01 to 28"]),
        Bad(args: ["stats", "--to", "2025-13"], mentions: ["--to", "'2025-13'", "the month must be 01 to 12"]),
        Bad(args: ["stats", "--to", "March"], mentions: ["--to", "'March'", "expected YYYY-MM-DD, or YYYY-MM"]),
        Bad(args: ["stats", "--account", "Nope"], mentions: ["--account 'Nope'", "no such account", "capital account list"]),
        Bad(args: ["stats", "--by", "year"], mentions: ["--by 'year'", "expected category, month or spender"]),
        Bad(args: ["stats", "--format", "xml"], mentions: ["--format 'xml'", "expected table, json or csv"]),
        Bad(args: ["stats", "--from", "-3x"], mentions: ["--from '-3x'", "expected -N with d, w, m or y (-30d, -2w, -6m, -1y)"]),
        Bad(args: ["stats", "--from", "-200y"], mentions: ["--from '-200y'", "looks further than 100 years"]),
        Bad(args: ["stats", "--from", "-1m", "--to", "-2m"], mentions: ["--from '-1m'", "is after --to 2025-01-20"]),
    ]

    @Test("--from and --to may count back from today: -1y is the same day a year before")
    func relativeDays() throws {
        let cli = try CLI.household()
        for (relative, day) in [("-1y", "2024-03-20"), ("-2m", "2025-01-20"), ("-3w", "2025-02-27"), ("-10d", "2025-03-10")] {
            #expect(
                cli.ok(["--today", Self.today, "stats", "--from", relative, "--format", "json"])
                    == cli.ok(["--today", Self.today, "stats", "--from", day, "--format", "json"]), "\(relative)")
        }
        #expect(
            cli.ok(["--today", Self.today, "stats", "--from", "-1y", "--to", "-1m", "--by", "month", "--format", "csv"])
                == cli.ok(["--today", Self.today, "stats", "--from", "2024-03-20", "--to", "2025-02-20", "--by", "month", "--format", "csv"]))
    }

    @Test(arguments: bad)
    func refusedWithOneLine(_ bad: Bad) throws {
        let cli = try CLI.household()
        let result = cli.fails(["--today", Self.today] + bad.args, mentioning: bad.mentions)
        #expect(result.status == 64)
    }

    @Test("bad input is refused the same way on the ledger file")
    func refusedOnTheFile() throws {
        let cli = try CLI()
        cli.fails(["-f", CLI.samplePath, "--today", Self.today, "stats", "--by", "week"], mentioning: ["--by 'week'"])
        cli.fails(["-f", CLI.samplePath, "--today", Self.today, "stats", "--account", "Nope"], mentioning: ["--account 'Nope'", "no such account"])
    }
}
