import CapitalCore
import Testing

@Suite("Counted nouns")
struct CountedTests {
    @Test func oneIsSingularEveryOtherCountPlural() {
        #expect(1.counted("posting") == "1 posting")
        #expect(0.counted("posting") == "0 postings")
        #expect(3.counted("posting") == "3 postings")
        #expect((-1).counted("day") == "-1 days")
        #expect(2.counted("category", plural: "categories") == "2 categories")
        #expect(1.counted("category", plural: "categories") == "1 category")
    }
}
