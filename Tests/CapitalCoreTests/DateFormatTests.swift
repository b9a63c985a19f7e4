import CapitalCore
import Testing

@Suite("Statement date formats")
struct DateFormatTests {
    static func day(_ pattern: String, _ text: String) throws -> String? {
        try DateFormat(pattern).day(text[...])?.iso
    }

    @Test(
        "reads each directive",
        arguments: [
            ("%Y-%m-%d", "2025-03-01", "2025-03-01"),
            ("%d/%m/%Y", "01/02/2025", "2025-02-01"),
            ("%d.%m.%Y", "31.12.2024", "2024-12-31"),
            ("%m/%d/%Y", "12/31/2024", "2024-12-31"),
            ("%Y%m%d", "20250301", "2025-03-01"),
            ("%-d/%-m/%Y", "1/2/2025", "2025-02-01"),
            ("%-d/%-m/%Y", "01/02/2025", "2025-02-01"),
            ("%-d.%-m.%Y", "31.12.2024", "2024-12-31"),
            ("%Y-%m-%-d", "2025-02-1", "2025-02-01"),
            ("%-d%m%Y", "1022025", "2025-02-01"),  // the one-or-two-digit day backtracks to one
            ("%e/%m/%Y", " 1/02/2025", "2025-02-01"),
            ("%e/%m/%Y", "1/02/2025", "2025-02-01"),
            ("%e/%m/%Y", "01/02/2025", "2025-02-01"),
            ("%m/%e/%Y", "02/ 1/2025", "2025-02-01"),
            ("%d %b %Y", "01 Feb 2025", "2025-02-01"),
            ("%d %b %Y", "01 FEB 2025", "2025-02-01"),
            ("%d %b %Y", "01 feb 2025", "2025-02-01"),
            ("%d %h %Y", "01 Sep 2025", "2025-09-01"),
            ("%d %B %Y", "01 February 2025", "2025-02-01"),
            ("%d %B %Y", "01 may 2025", "2025-05-01"),
            ("%d-%b-%y", "15-Mar-25", "2025-03-15"),
            ("%b %d, %Y", "Dec 31, 2024", "2024-12-31"),
            ("%B %-d, %Y", "December 1, 2024", "2024-12-01"),
            ("%d %b %Y", "01   Feb \t 2025", "2025-02-01"),  // a space matches one or more
            ("%d.%m.%y", "01.02.25", "2025-02-01"),
            ("%d.%m.%y", "01.02.68", "2068-02-01"),
            ("%d.%m.%y", "01.02.69", "1969-02-01"),
            ("%d.%m.%y", "01.02.99", "1999-02-01"),
            ("%d.%m.%y", "01.02.00", "2000-02-01"),
            ("%Y-%m-%d %H:%M:%S", "2025-03-01 23:59:59", "2025-03-01"),
            ("%Y-%m-%d %T", "2025-03-01 12:34:56", "2025-03-01"),
            ("%Y-%m-%d %-H:%M", "2025-03-01 1:34", "2025-03-01"),
            ("%Y-%m-%d %I:%M %p", "2025-03-01 01:34 PM", "2025-03-01"),
            ("%Y-%m-%d %I:%M%p", "2025-03-01 01:34am", "2025-03-01"),
            ("%Y-%m-%dT%H:%M:%S%z", "2025-03-01T12:34:56+0100", "2025-03-01"),
            ("%Y-%m-%dT%H:%M:%S%z", "2025-03-01T12:34:56-05:30", "2025-03-01"),
            ("%Y-%m-%d %Z", "2025-03-01 CET", "2025-03-01"),
            ("%Y-%m-%d %Z", "2025-03-01 +0100", "2025-03-01"),
            ("%d%%%m%%%Y", "01%02%2025", "2025-02-01"),
            ("%Y-%m-%d", "  2025-03-01 ", "2025-03-01"),  // spaces around the text are dropped
            ("%d/%m/%Y", "29/02/2024", "2024-02-29"),
            ("Date: %d/%m/%Y", "Date: 01/02/2025", "2025-02-01"),
        ])
    func directives(pattern: String, text: String, expected: String) throws {
        #expect(try Self.day(pattern, text) == expected)
    }

    @Test(
        "text that does not match the whole pattern is no day",
        arguments: [
            ("%d/%m/%Y", "1/2/2025"),  // %d and %m want two digits, as in hledger
            ("%d/%m/%Y", "001/02/2025"),
            ("%d/%m/%Y", "01/02/25"),  // %Y wants four
            ("%d/%m/%Y", "01/02/02025"),
            ("%d.%m.%y", "01.02.2025"),
            ("%d.%m.%y", "01.02.5"),
            ("%Y-%m-%d", "2025-03-01x"),
            ("%Y-%m-%d", "2025-3-01"),
            ("%Y-%m-%d", "2025/03/01"),
            ("%Y-%m-%d", ""),
            ("%Y%m%d", "2025 03 01"),
            ("%d%b%Y", "01 Feb 2025"),
            ("%d %b %Y", "01Feb2025"),
            ("%d %b %Y", "01 Sept 2025"),
            ("%d %b %Y", "01 Fev 2025"),
            ("%Y-%m-%d %T", "2025-03-01 12:34"),
            ("%Y-%m-%d %p", "2025-03-01 XM"),
            ("%Y-%m-%d%z", "2025-03-01Z"),
            ("%-d/%-m/%Y", "0/2/2025"),
        ])
    func nonMatching(pattern: String, text: String) throws {
        #expect(try Self.day(pattern, text) == nil)
    }

    @Test(
        "a date that is not a day is no day",
        arguments: ["31/02/2025", "29/02/2025", "31/04/2025", "00/01/2025", "01/00/2025", "01/13/2025", "32/01/2025"])
    func invalidDays(text: String) throws {
        #expect(try Self.day("%d/%m/%Y", text) == nil)
    }

    @Test(
        "refuses patterns it cannot read",
        arguments: [
            ("%Q/%m/%Y", "date-format '%Q/%m/%Y' has an unknown directive '%Q'"),
            ("%d/%m/%Y %j", "date-format '%d/%m/%Y %j' has an unknown directive '%j'"),
            ("%-Y-%m-%d", "date-format '%-Y-%m-%d' has an unknown directive '%-Y'"),
            ("%d/%m/%Y%", "date-format '%d/%m/%Y%' ends with a lone '%'"),
            ("%d/%m/%Y%-", "date-format '%d/%m/%Y%-' ends with a lone '%-'"),
            ("%d/%m", "date-format '%d/%m' has no year (%Y or %y)"),
            ("%d/%Y", "date-format '%d/%Y' has no month (%m, %-m, %b or %B)"),
            ("%m/%Y", "date-format '%m/%Y' has no day (%d, %-d or %e)"),
            ("", "date-format '' has no year (%Y or %y)"),
            ("%d %é %Y", "date-format '%d %é %Y' has an unknown directive '%é'"),
        ])
    func badPatterns(pattern: String, message: String) {
        #expect(throws: StatementError(line: 0, message)) { try DateFormat(pattern) }
    }

    @Test("keeps the pattern, without spaces around it, and compares by it")
    func patternKept() throws {
        #expect(try DateFormat(" %d/%m/%Y ").pattern == "%d/%m/%Y")
        #expect(try DateFormat(" %d/%m/%Y ") == DateFormat("%d/%m/%Y"))
        #expect(try DateFormat("%d/%m/%Y") != DateFormat("%m/%d/%Y"))
    }

    @Test(
        "hledger's default reads Y-M-D, Y/M/D and Y.M.D with one- or two-digit months and days",
        arguments: [
            ("2025-03-01", "2025-03-01"), ("2025/03/01", "2025-03-01"), ("2025.03.01", "2025-03-01"), ("2025-3-1", "2025-03-01"),
            ("2025/12/31", "2025-12-31"), (" 2025.3.01 ", "2025-03-01"), ("2024-02-29", "2024-02-29"),
            ("2025-02-29", nil), ("2025-03-01 12:00", nil), ("01/03/2025", nil), ("2025-03", nil), ("2025/03-01", nil), ("", nil),
            ("25-03-01", nil), ("2025-003-01", nil),
        ] as [(String, String?)])
    func defaultDay(text: String, expected: String?) {
        #expect(DateFormat.defaultDay(text[...])?.iso == expected)
    }
}
