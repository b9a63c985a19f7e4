import CapitalCore
import Testing

@Suite("Delimited (CSV) reading")
struct DelimitedReaderTests {
    /// All the records of `text`, as (line, fields).
    static func read(_ text: String, separator: Character = ",", maxRecordBytes: Int = 1 << 20) throws(StatementError) -> [DelimitedRecord] {
        var reader = DelimitedReader(text: text, separator: separator.asciiValue!, maxRecordBytes: maxRecordBytes)
        var records: [DelimitedRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    static func record(_ line: Int, _ fields: String...) -> DelimitedRecord { DelimitedRecord(line: line, fields: fields) }

    @Test("splits lines into fields, keeping spaces and empty fields")
    func plainFields() throws {
        #expect(
            try Self.read("date,amount\n2025-03-01, 12.50 ,x\n,,\n") == [
                Self.record(1, "date", "amount"), Self.record(2, "2025-03-01", " 12.50 ", "x"), Self.record(3, "", "", ""),
            ])
    }

    @Test("the last line needs no line break, and a trailing separator is an empty last field")
    func lastLine() throws {
        #expect(try Self.read("a,b,\nc") == [Self.record(1, "a", "b", ""), Self.record(2, "c")])
    }

    @Test("empty text and blank lines make no records; line numbers count them", arguments: ["", "\n", "\r\n\r\n", "  \n\t\n"])
    func nothingToRead(text: String) throws {
        #expect(try Self.read(text) == [])
    }

    @Test("blank lines are skipped and still counted")
    func blankLinesSkipped() throws {
        #expect(try Self.read("a\n\n\n  \nb\r\n\r\n\rc\n\n") == [Self.record(1, "a"), Self.record(5, "b"), Self.record(8, "c")])
    }

    @Test("CRLF, LF and a lone CR each end a line")
    func lineEnds() throws {
        #expect(
            try Self.read("a,1\r\nb,2\rc,3\nd,4\r") == [
                Self.record(1, "a", "1"), Self.record(2, "b", "2"), Self.record(3, "c", "3"), Self.record(4, "d", "4"),
            ])
    }

    @Test("quoted fields hold separators and doubled quotes")
    func quotedFields() throws {
        #expect(
            try Self.read(#""a,b","say ""hi""","""","""# + "\n" + #""",x"#) == [
                Self.record(1, "a,b", #"say "hi""#, #"""#, ""), Self.record(2, "", "x"),
            ])
    }

    @Test("quoted line breaks are kept and later lines are numbered right")
    func quotedLineBreaks() throws {
        let text = "h1,h2\n\"two\nlines\",1\n\"three\r\nlines\rhere\",2\nlast,3\n"
        #expect(
            try Self.read(text) == [
                Self.record(1, "h1", "h2"), Self.record(2, "two\nlines", "1"), Self.record(4, "three\r\nlines\rhere", "2"),
                Self.record(7, "last", "3"),
            ])
    }

    @Test("spaces before an opening quote and after a closing quote are dropped")
    func spacesAroundQuotes() throws {
        #expect(try Self.read(#"a, "b" ,  "c,d"  "#) == [Self.record(1, "a", "b", "c,d")])
    }

    @Test("a quote inside an unquoted field is kept as it is")
    func quoteInsideUnquotedField() throws {
        #expect(try Self.read(#"12" screen,ab"c"# + "\n") == [Self.record(1, #"12" screen"#, #"ab"c"#)])
    }

    @Test("other separators", arguments: [";", "\t", "|"] as [Character])
    func otherSeparators(separator: Character) throws {
        let s = String(separator)
        let text = "Дата\(s)Сумма\(s)Комментарий\r\n01.02.2025\(s)\"-1 234,56\"\(s)\"a\(s)b\"\r\n"
        #expect(
            try Self.read(text, separator: separator) == [
                Self.record(1, "Дата", "Сумма", "Комментарий"), Self.record(2, "01.02.2025", "-1 234,56", "a\(s)b"),
            ])
    }

    @Test("with a TAB separator a line of tabs is a record of empty fields, not a blank line")
    func tabsAreFieldsUnderTab() throws {
        #expect(try Self.read("a\tb\n\t\n", separator: "\t") == [Self.record(1, "a", "b"), Self.record(2, "", "")])
    }

    @Test("a quote never closed is refused at the line it opens")
    func unterminatedQuote() {
        #expect(throws: StatementError(line: 7, "a quoted field opened here is never closed")) {
            try Self.read("h\n1\n2\n3\n4\n5\nx,\"open\nmore\nlines\n")
        }
    }

    @Test(
        "text after a closing quote is refused",
        arguments: [
            (#""ab"c,d"#, StatementError(line: 1, #"text after a closing quote: '"ab"c'"#)),
            ("x\n\"a\nb\"é\n", StatementError(line: 3, "text after a closing quote: '\"a'")),
            (#"1,"x" y"#, StatementError(line: 1, #"text after a closing quote: '"x" y'"#)),
        ])
    func textAfterClosingQuote(text: String, expected: StatementError) {
        #expect(throws: expected) { try Self.read(text) }
    }

    @Test("a single-line record of 2 MB is refused quickly")
    func hugeRecordRefused() throws {
        let text = "date,amount\n" + String(repeating: "x", count: 2 << 20) + "\n"
        var reader = DelimitedReader(text: text)
        #expect(try reader.next() == Self.record(1, "date", "amount"))
        let elapsed = ContinuousClock().measure {
            #expect(throws: StatementError(line: 2, "a record of more than 1 MB: '\(String(repeating: "x", count: 40))…'")) {
                try reader.next()
            }
        }
        #expect(elapsed < .milliseconds(500))
        #expect(try reader.next() == nil, "the reader stops after an error")
    }

    @Test("a quote left open in a big file is refused at the record limit")
    func openQuoteInBigFile() {
        let text = "a,\"b\n" + String(repeating: "1,2\n", count: 300)
        #expect(throws: StatementError(line: 1, "a record of more than 1 KB: 'a,\"b…'")) { try Self.read(text, maxRecordBytes: 1024) }
    }

    @Test("a record exactly at the limit is read")
    func recordAtLimit() throws {
        #expect(try Self.read("abc,de\nfg", maxRecordBytes: 6) == [Self.record(1, "abc", "de"), Self.record(2, "fg")])
        #expect(throws: StatementError(line: 1, "a record of more than 5 bytes: 'abc,de…'")) { try Self.read("abc,de\nfg", maxRecordBytes: 5) }
    }

    @Test("random fields written with RFC 4180 quoting read back, with their line numbers")
    func randomRoundTrip() throws {
        var random = SplitMix64(seed: 4180)
        let alphabet = ["a", "Я", "é", "🚗", " ", ",", "\"", "\n", "\r\n", "\r", ";", "1"]
        for _ in 0..<300 {
            var text = ""
            var expected: [DelimitedRecord] = []
            var line = 1
            for _ in 0..<(1 + random.next(below: 4)) {
                var fields: [String] = []
                for _ in 0..<(1 + random.next(below: 4)) {
                    fields.append((0..<random.next(below: 6)).map { _ in alphabet[random.next(below: alphabet.count)] }.joined())
                }
                if fields.count == 1 && fields[0].allSatisfy({ $0 == " " }) { fields[0] = "x" }  // not a blank line
                expected.append(DelimitedRecord(line: line, fields: fields))
                let quoted = fields.map { field in
                    field.unicodeScalars.contains(where: { ",\"\n\r ".unicodeScalars.contains($0) })
                        ? "\"" + field.replacing("\"", with: "\"\"") + "\"" : field
                }
                text += quoted.joined(separator: ",") + (random.next(below: 2) == 0 ? "\n" : "\r\n")
                line += 1 + fields.map(Self.lineBreaks).reduce(0, +)
            }
            #expect(try Self.read(text) == expected, "\(text.debugDescription)")
        }
    }

    /// How many lines `text` ends: each LF, each CR not before an LF.
    static func lineBreaks(_ text: String) -> Int {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.filter { scalars[$0] == "\n" || (scalars[$0] == "\r" && ($0 + 1 == scalars.count || scalars[$0 + 1] != "\n")) }.count
    }
}
