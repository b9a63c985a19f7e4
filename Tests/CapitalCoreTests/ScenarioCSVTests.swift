import Testing

@testable import CapitalCore

/// The scenario CSV reader: fields, quotes, columns, and the messages of bad lines.
@Suite("Scenario CSV")
struct ScenarioCSVTests {
    static func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }
    static func texts(_ line: String) -> [String]? { ScenarioCSV.fields(bytes(line))?.map { String(decoding: $0, as: UTF8.self) } }

    @Test func fieldsAreSplitUnquotedAndTrimmed() {
        #expect(Self.texts("a,b,c") == ["a", "b", "c"])
        #expect(Self.texts(" a , b ,c ") == ["a", "b", "c"])
        #expect(Self.texts("\"Kia Rio, 2020\",1300000") == ["Kia Rio, 2020", "1300000"])
        #expect(Self.texts("\"say \"\"hi\"\"\",x") == ["say \"hi\"", "x"])
        #expect(Self.texts(",,") == ["", "", ""])
        #expect(Self.texts("") == [""])
        #expect(Self.texts("\"open,1") == nil)
        #expect(Self.texts("\"a\"b,1") == nil)
    }

    @Test func aLineBecomesTheSameScenarioAsItsFields() throws {
        let csv = try ScenarioCSV(header: Self.bytes("name, price ,date,down,loan_rate,loan_term,monthly_cost,yearly_cost,sale,sale_date"))
        let (name, scenario) = try csv.scenario(
            Self.bytes("\"Octavia, 1.4\",2400000.50,2025-09-01,500000,14.9,60,6000,35000,900000,2025-10-01"), exponent: 2, line: 2)
        #expect(name == "Octavia, 1.4")
        let day = try Day(iso: "2025-09-01")
        let expected = try Scenario(
            price: 240_000_050, day: day, financing: .loan(ScenarioLoan(downPayment: 50_000_000, rate: Rate(parsing: "14.9"), term: 60)),
            costs: [RecurringChange(amount: 600_000, period: .monthly, start: day), RecurringChange(amount: 3_500_000, period: .yearly, start: day)],
            sale: AssetSale(day: try Day(iso: "2025-10-01"), amount: 90_000_000))
        #expect(scenario == expected)
        let (unnamed, _) = try csv.scenario(Self.bytes(",1000,2025-09-01,,,,,,,"), exponent: 2, line: 7)
        #expect(unnamed == "line 7")
    }

    @Test func badHeadersAndLinesNameWhatIsWrong() throws {
        #expect(
            throws: ScenarioFieldError(
                column: "header", value: "prize",
                reason: "not a scenario column; expected \(ScenarioColumn.allCases.map(\.rawValue).joined(separator: ", "))")
        ) {
            try ScenarioCSV(header: Self.bytes("name,prize,date"))
        }
        #expect(throws: ScenarioFieldError.self) { try ScenarioCSV(header: Self.bytes("name,price")) }
        #expect(throws: ScenarioFieldError.self) { try ScenarioCSV(header: Self.bytes("price,date,price")) }
        let csv = try ScenarioCSV(header: Self.bytes("price,date,down,loan_rate,loan_term,instalments"))
        func error(_ line: String) -> ScenarioFieldError? {
            do { _ = try csv.scenario(Self.bytes(line), exponent: 2, line: 3) } catch { return error }
            return nil
        }
        #expect(error("-5,2025-09-01,,,,")?.column == "price")
        #expect(error("5.001,2025-09-01,,,,")?.reason.contains("at most 2 decimals") == true)
        #expect(error("5,2025-02-30,,,,")?.column == "date")
        #expect(error("5000,2025-09-01,10,12,0,")?.column == "loan_term")
        #expect(error("5,2025-09-01,10,12,6,")?.column == "down")
        #expect(error("5,2025-09-01,10,,,")?.column == "down")
        #expect(error("5,2025-09-01,,12,,")?.column == "loan_term")
        #expect(error("5,2025-09-01,,,24,")?.column == "loan_rate")
        #expect(error("5,2025-09-01,,1001,12,")?.column == "loan_rate")
        #expect(error("5,2025-09-01,,12,12,6")?.column == "instalments")
        #expect(error("5,2025-09-01")?.reason == "has 2 fields, the header 6")
        #expect(error("5,2025-09-01,,,,,,,")?.reason == "has more than 6 fields, the header 6")
    }

    /// A whole chunk read on two threads gives the same rows, names, errors and line numbers as
    /// reading it line by line: cuts fall inside the text wherever, comments, blank lines, `\r`
    /// and bad lines included, and long quoted names with doubled quotes.
    @Test func aChunkReadOnTwoThreadsEqualsLineByLine() throws {
        let csv = try ScenarioCSV(header: Self.bytes("name,price,date,down,loan_rate,loan_term"))
        var lines: [String] = []
        var random = SplitMix64(seed: 11)
        for index in 0..<6_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: lines.append("")
            case 1: lines.append("# comment \(index)")
            case 2: lines.append("\"Car \(index), bad\",-5,2025-09-01,,,")
            case 3: lines.append("Car \(index),1000,2025-09-0\(1 + Int.random(in: 0..<9, using: &random)),100,12,24\r")
            case 4: lines.append(",\(Int.random(in: 0..<99_999, using: &random)),2025-10-01,,,")
            case 5: lines.append("\"unclosed \(index),1,2025-01-01,,,")
            case 6:
                // A long quoted name with doubled quotes: unescaped into scratch room that grows
                // past its first 256 bytes, then reused by the lines after it.
                let long = String(repeating: "é", count: Int.random(in: 100..<500, using: &random))
                lines.append("\"Long \"\"quoted\"\" \(long) \(index)\",1000,2025-09-01,,,")
            default:
                lines.append(
                    "Car \(index),\(1 + Int.random(in: 0..<9_000_000, using: &random)).\(Int.random(in: 0..<10, using: &random)),2025-11-1\(Int.random(in: 0..<10, using: &random)),,,"
                )
            }
        }
        // A last line that is not empty (a text ending in a line break has no line after it).
        lines.append("Last,1,2025-09-01,,,")
        // Lines 5… of a file: the chunk's first line is line 5.
        let text = Self.bytes(lines.joined(separator: "\n"))
        let (rows, count) = csv.rows(text, firstLine: 5, exponent: 2, threads: 2)
        let (single, singleCount) = csv.rows(text, firstLine: 5, exponent: 2, threads: 1)
        #expect(count == lines.count && singleCount == lines.count)
        var expected: [(line: Int, name: String, scenario: Result<Scenario, ScenarioFieldError>)] = []
        for (offset, line) in lines.enumerated() {
            var bytes = Self.bytes(line)
            if bytes.last == 13 { bytes = bytes.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let number = offset + 5
            do {
                let (name, scenario) = try csv.scenario(bytes, exponent: 2, line: number)
                expected.append((number, name, .success(scenario)))
            } catch {
                expected.append(
                    (
                        number,
                        line.hasPrefix("\"unclosed")
                            ? "line \(number)" : (ScenarioCSV.fields(bytes)?.first).map { String(decoding: $0, as: UTF8.self) } ?? "", .failure(error)
                    ))
            }
        }
        #expect(expected.count > 4_000)
        #expect(expected.contains { $0.name.hasPrefix("Long \"quoted\" éé") && $0.name.utf8.count > 256 })
        for candidate in [rows, single] {
            #expect(candidate.count == expected.count)
            for (row, want) in zip(candidate, expected) {
                #expect(row.line == want.line)
                #expect(row.name == (want.name.isEmpty ? "line \(want.line)" : want.name))
                #expect(row.scenario == want.scenario)
            }
        }
        #expect(csv.rows(Self.bytes(""), firstLine: 1, exponent: 2).rows.isEmpty)
    }

    /// The byte-level readers against the core's own parsers on many values.
    @Test func fastReadersAgreeWithTheCoreParsers() throws {
        var random = SplitMix64(seed: 17)
        for _ in 0..<5_000 {
            let percent = "\(random.next() % 1_200)" + (random.next() % 2 == 0 ? ".\(random.next() % 10_000)" : "")
            let fast = Array(percent.utf8).withUnsafeBufferPointer { ScenarioFields.rate($0) }
            let slow = try? Rate(parsing: percent)
            #expect(fast == slow, "\(percent)")
            let amount = "\(random.next() % 100_000_000)" + (random.next() % 2 == 0 ? ".\(random.next() % 100)" : "")
            let money = try? Money(parsing: amount, currency: Currency("RUB"))
            let minor = Array(amount.utf8).withUnsafeBufferPointer { ScenarioFields.minor($0, exponent: 2, signed: false) }
            #expect(minor == money?.minor, "\(amount)")
        }
    }
}
