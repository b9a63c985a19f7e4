import CapitalCore
import Foundation
import GRDB
import Testing

@testable import CapitalStore

/// A snapshot's JSON made of change sets the way a server makes one: for each (record, group)
/// the value with the highest (HLC, device), found with the merge rule itself.
func snapshotJSON(of sets: [ChangeSet], head: Int64, edit: (SnapshotEntry) -> SnapshotEntry = { $0 }) throws -> Data {
    var winners: [String: SnapshotEntry] = [:]
    for set in sets {
        for change in set.changes {
            let key = "\(change.entity)\t\(change.record)\t\(change.group)"
            let incoming = SyncWinner(value: change.value, stamp: SyncStamp(hlc: HybridTimestamp(change.hlc)!, device: set.device), base: nil)
            let current = winners[key].map {
                SyncWinner(value: $0.value, stamp: SyncStamp(hlc: HybridTimestamp($0.hlc)!, device: $0.device), base: nil)
            }
            guard case .take = SyncMerge.decide(current: current, incoming: incoming) else { continue }
            winners[key] = SnapshotEntry(
                entity: change.entity, record: change.record, group: change.group, value: change.value, hlc: change.hlc, device: set.device,
                base: change.base)
        }
    }
    let entries = winners.keys.sorted().map { edit(winners[$0]!) }
    return try JSONEncoder().encode(SyncWire.Snapshot(entries: entries, head: head))
}

@Suite struct SyncSnapshotTests {
    /// What a device holds, device-local columns and the order it keeps transactions in included.
    private func everything(_ device: Device) throws -> String {
        try device.store.read("test") { db in
            let txns = try String.fetchAll(db, sql: "SELECT id || ' ' || seq || ' ' || deleted FROM txn ORDER BY seq").joined(separator: "\n")
            let accounts = try String.fetchAll(db, sql: "SELECT id || ' ' || name || ' ' || deleted || ' ' || hidden FROM account ORDER BY id")
            let months = try String.fetchAll(db, sql: "SELECT accountId || currency || month || amountMinor FROM balanceMonth ORDER BY 1")
            return txns + "\n" + accounts.joined(separator: "\n") + "\n" + months.joined(separator: "\n")
        } + (try device.tables())
    }

    /// Two households' worth of writes on two devices, with every kind of clash the merge
    /// settles: two accounts of one name, two budgets of one category, two dues numbered alike,
    /// two transactions of one statement line, and removed records.
    private func clashingSets() throws -> [ChangeSet] {
        let anna = try Device()
        try anna.store.importDocument(Sample.household)
        try anna.acknowledgeAll()
        let base = try anna.store.read("test") { db in
            try String.fetchAll(db, sql: "SELECT body FROM changeSet ORDER BY deviceSeq").map(SyncLog.decode)
        }
        let ivan = try Device(at: 1_750_000_000_000 + 90_000)
        try ivan.store.applyRemote(base)
        let day = try Day(iso: "2025-04-10")
        try anna.store.addAccount(name: "Wallet", kind: .cash, currency: nil)
        try ivan.store.addAccount(name: "wallet", kind: .cash, currency: nil)
        try anna.store.setBudget(BudgetInput(category: "Groceries", amount: "3000", start: day))
        try ivan.store.setBudget(BudgetInput(category: "Groceries", amount: "4500", start: day))
        try anna.store.addDue(DueInput(type: .bill, total: "1000", reason: "Water", dueDay: day))
        try ivan.store.addDue(DueInput(type: .bill, total: "500", reason: "Phone", dueDay: day))
        let gone = try anna.store.add(on: "2025-03-02", payee: "Bakery", [("Groceries", "350"), ("Cash", nil)])
        try anna.store.removeTransaction(gone.id)
        try ivan.store.add(on: "2025-03-03", payee: "Fuel", [("Cash", "-2000"), ("Groceries", nil)])
        return base + (try anna.store.pendingChangeSets(limit: .max)) + (try ivan.store.pendingChangeSets(limit: .max))
    }

    @Test func aJoinWritesWhatTheMergeWouldWriteRecordByRecord() throws {
        let sets = try clashingSets()
        // Two transactions claiming one statement line, as two phones importing one statement make.
        var claimed = 0
        let snapshot = try snapshotJSON(of: sets, head: 42) { entry in
            guard entry.entity == "txn", entry.group == "header", claimed < 2, entry.value.contains("\"importKey\":null") else { return entry }
            claimed += 1
            return SnapshotEntry(
                entity: entry.entity, record: entry.record, group: entry.group,
                value: entry.value.replacingOccurrences(of: "\"importKey\":null", with: "\"importKey\":\"statement line 7\""), hlc: entry.hlc,
                device: entry.device, base: entry.base)
        }
        let bulk = try Device()
        let oneByOne = try Device()
        let bulkReport = try bulk.store.applySnapshot(snapshot, bulk: true)
        let oneByOneReport = try oneByOne.store.applySnapshot(snapshot, bulk: false)
        #expect(bulkReport.taken == oneByOneReport.taken)
        #expect(try everything(bulk) == everything(oneByOne))
        #expect(try bulk.store.syncCanonical() == oneByOne.store.syncCanonical())
        #expect(try bulk.store.syncCursor() == 42)
        // The settlements (the later budget and statement line removed, the due renumbered) are
        // this device's changes to send, alike.
        let sent = { (device: Device) in
            try device.store.pendingChangeSets(limit: .max).flatMap(\.changes).map { "\($0.entity) \($0.record) \($0.group) \($0.value)" }.sorted()
        }
        #expect(try sent(bulk) == sent(oneByOne))
        #expect(try !sent(bulk).isEmpty)
        #expect(try bulk.store.accounts().map(\.name).contains("wallet (2)"))
        #expect(try bulk.store.syncDigest() == SHA256.hex(try bulk.store.syncCanonical()))
    }

    @Test func aSnapshotOfWhatADeviceHoldsRebuildsItOnAnother() throws {
        let anna = try Device()
        try anna.store.importDocument(Sample.household)
        let sets = try anna.store.pendingChangeSets(limit: .max)
        let phone = try Device()
        try phone.store.applySnapshot(try snapshotJSON(of: sets, head: Int64(sets.count)))
        #expect(try phone.tables() == anna.tables())
        #expect(try phone.store.syncCanonical() == anna.store.syncCanonical())
        #expect(try phone.store.balancesByName() == anna.store.balancesByName())
        #expect(try phone.store.pendingChangeSets().isEmpty, "a join has nothing of its own to send")
    }

    /// The reader gets back every string Foundation's encoder writes, and the escapes a hand
    /// (or another JSON library) may write instead.
    @Test func theReaderReadsWhatAJSONEncoderWrites() throws {
        let tricky = ["plain", "", "quote \" and \\ backslash", "tab\tnew\nline\u{1}", "кошелёк é 😀", #"{"rows":[{"a":"b\"c"}]}"#, "/slash/"]
        let entries =
            tricky.map { SnapshotEntry(entity: $0, record: $0, group: $0, value: $0, hlc: $0, device: $0, base: $0) }
            + [SnapshotEntry(entity: "e", record: "r", group: "g", value: "{}", hlc: "0", device: "d", base: nil)]
        let body = try JSONEncoder().encode(SyncWire.Snapshot(entries: entries, head: 12))
        var read: [SnapshotEntry] = []
        let head = try body.withUnsafeBytes { try SnapshotReader.read($0.bindMemory(to: UInt8.self)) { read.append($0) } }
        #expect(head == 12)
        #expect(read == entries)
        let hand = Data(#" { "entries" : [ [ "\u00e9\ud83d\ude00", "\/\b\f\r", "g", "v", "h", "d", null ] ] , "head" : 0 } "#.utf8)
        read = []
        _ = try hand.withUnsafeBytes { try SnapshotReader.read($0.bindMemory(to: UInt8.self)) { read.append($0) } }
        #expect(read.map(\.entity) == ["é😀"])
        #expect(read.map(\.record) == ["/\u{8}\u{c}\r"])
        #expect(read.map(\.base) == [nil])
    }

    /// Each damaged snapshot is refused in one line naming what is wrong, and the device is left as it was.
    @Test(arguments: [
        ("not json", "expected { at byte 0"),
        (#"{"entries": []}"#, "it needs a head and entries"),
        (#"{"head": "7", "entries": []}"#, "expected a whole number at byte 9"),
        (#"{"head": 7, "entries": [], "extra": 1}"#, "the key \"extra\" is not head or entries"),
        (#"{"head": 7, "head": 8, "entries": []}"#, "or comes twice"),
        (#"{"head": -1, "entries": []}"#, "its head -1 is negative"),
        (#"{"head": 7, "entries": []} []"#, "something follows the snapshot"),
        (#"{"head": 7, "entries": [["txn", "a", "header"]]}"#, "expected , at byte"),
        (#"{"head": 7, "entries": [["txn", "a", "header", {"day": 1}, "0000018f2b3c4d5e", "d", null]]}"#, "expected \" at byte"),
        (#"{"head": 7, "entries": [["txn", "a\x", "header", "{}", "0000018f2b3c4d5e", "d", null]]}"#, "an unknown escape"),
        (#"{"head": 7, "entries": [["txn", "a\ud800", "header", "{}", "0000018f2b3c4d5e", "d", null]]}"#, "half a surrogate pair"),
        (
            #"{"head": 7, "entries": [["txn", "a", "deleted", "true", "0000018f2b3c4d5e", "d", null], ["txn", "a", "deleted", "true", "0000018f2b3c4d5e", "d", null]]}"#,
            "txn a deleted comes twice"
        ),
        (#"{"head": 7, "entries": [["wallet", "a", "name", "{}", "0000018f2b3c4d5e", "d", null]]}"#, "no such kind of record"),
        (#"{"head": 7, "entries": [["txn", "a", "colour", "{}", "0000018f2b3c4d5e", "d", null]]}"#, "txn has no group colour"),
        (#"{"head": 7, "entries": [["txn", "a", "header", "{}", "yesterday", "d", null]]}"#, "is not 16 hexadecimal digits"),
        (#"{"head": 7, "entries": [["txn", "a", "header", "{}", "0000018f2b3c4d5e", "d", "later"]]}"#, "is not HLC@device"),
        (#"{"head": 7, "entries": [["txn", "a", "header", "[1]", "0000018f2b3c4d5e", "d", null]]}"#, "the value is not a JSON object"),
        (#"{"head": 7, "entries": [["txn", "a", "deleted", "maybe", "0000018f2b3c4d5e", "d", null]]}"#, "deleted is true or false"),
        (
            #"{"head": 7, "entries": [["txn", "a", "postings", "{\"rows\":[{\"amountMinor\":100,\"currency\":\"RUB\"}]}", "0000018f2b3c4d5e", "d", null]]}"#,
            "do not balance: RUB sums to 100 minor units"
        ),
        (
            #"{"head": 7, "entries": [["txn", "a", "postings", "{\"rows\":[{\"amountMinor\":9223372036854775807,\"currency\":\"RUB\"},{\"amountMinor\":1,\"currency\":\"RUB\"}]}", "0000018f2b3c4d5e", "d", null]]}"#,
            "the postings in RUB overflow"
        ),
        (#"{"head": 7, "entries": [["txn", "a", "postings", "{\"rows\":[]}", "0000018f2b3c4d5e", "d", null]]}"#, "a transaction needs postings"),
    ])
    func aDamagedSnapshotIsRefusedWhole(body: String, reason: String) throws {
        let phone = try Device()
        #expect {
            try phone.store.applySnapshot(Data(body.utf8))
        } throws: { error in
            "\(error)".contains(reason) && !"\(error)".contains("\n")
        }
        #expect(try phone.store.syncCursor() == 0)
        #expect(try phone.store.syncCanonical().isEmpty)
    }
}
