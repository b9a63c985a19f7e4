import CapitalCore
import CapitalStore
import Testing

@testable import CapitalKit

@Suite struct ConflictWordsTests {
    /// A value in words names only the fields in which the two values differ, amounts as money
    /// and postings by their accounts' names.
    @Test func aValueInWordsNamesOnlyWhatDiffers() throws {
        let store = try Store.inMemory()
        try store.initialize(currency: try Currency("RUB"))
        let cash = try store.addAccount(name: "Cash", kind: .cash, currency: nil)
        try store.startSync()
        let words = try ConflictWords(store: store)
        let amount = words.differences(
            #"{"amountExpected":4500000,"amountLow":null,"note":"rent"}"#, #"{"amountExpected":4200000,"amountLow":null,"note":"rent"}"#)
        #expect(amount.kept == "amountExpected 45 000.00" && amount.lost == "amountExpected 42 000.00")
        let postings = words.differences(#"{"rows":[{"accountId":"\#(cash.id)","amountMinor":-35000,"currency":"RUB"}]}"#, #"{"rows":[]}"#)
        #expect(postings.kept == "Cash -350.00" && postings.lost == "none")
        let two = words.differences(#"{"amountLow":100,"note":"a"}"#, #"{"amountLow":200,"note":"b"}"#)
        #expect(two.kept == "amountLow 1.00, note a" && two.lost == "amountLow 2.00, note b")
        let name = words.differences(#"{"name":"Wallet","nameKey":"wallet"}"#, #"{"name":"Purse","nameKey":"purse"}"#)
        #expect(name.kept == "Wallet" && name.lost == "Purse")
        let removal = words.differences("true", "false")
        #expect(removal.kept == "removed" && removal.lost == "kept")
    }
}
