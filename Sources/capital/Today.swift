import CapitalCore
import Foundation

/// The one place capital reads the clock: the local calendar day, at startup.
enum Today {
    static func clock() -> Day {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return Day(Day.daysFromCivil(year: parts.year!, month: parts.month!, day: parts.day!))
    }
}
