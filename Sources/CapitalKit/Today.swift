import CapitalCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place capital reads the clock: the local calendar day, at a command's start or a
/// server's answer. Read through the C library's `localtime_r` (the TZ rules of the system), not
/// Foundation's `Calendar`, which loads ICU and costs a few milliseconds on every command.
public enum Today {
    /// Today's date in the system's time zone.
    public static func clock() -> Day {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return Day(Day.daysFromCivil(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)))
    }
}
