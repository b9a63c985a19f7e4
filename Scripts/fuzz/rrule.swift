// libFuzzer target: RRULE text and readable rules, parsed, validated, printed back and expanded
// over two years. Built and run by Scripts/fuzz/run.sh. A crash, a hang (-timeout), an error on
// more than one line or a canonical RRULE that reads as another rule aborts.
import CapitalCore

#if canImport(Glibc)
    import Glibc
#endif

@inline(never)
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fputs("\(message())\n", stderr)
        abort()
    }
}

func isOneLine(_ message: String) -> Bool {
    !message.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}" })
}

let start = try! Day(iso: "2025-01-31")
let range = DayRange(start, start.advanced(by: 2 * 366))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRRULE(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let rule = try Recurrence(rrule: text)
        let again = try Recurrence(rrule: rule.rrule)
        require(again == rule, "'\(rule.rrule)' reads as another rule")
        do { try rule.validate(start: start) } catch {
            require(isOneLine(error.description), "error on more than one line: \(error.description.debugDescription)")
        }
        _ = rule.occurrenceCount(start: start, in: range)
        _ = ReadableRule.print(rule, adjustment: .none)
    } catch {
        require(isOneLine(error.description), "error on more than one line: \(error.description.debugDescription)")
    }
    do {
        let (rule, adjustment) = try ReadableRule.parse(text)
        _ = rule.occurrenceCount(start: start, in: range)
        if let printed = ReadableRule.print(rule, adjustment: adjustment) {
            let (again, againAdjustment) = try ReadableRule.parse(printed)
            require(again == rule && againAdjustment == adjustment, "'\(printed)' reads as another rule")
        }
    } catch {
        require(isOneLine(error.description), "error on more than one line: \(error.description.debugDescription)")
    }
    return 0
}
