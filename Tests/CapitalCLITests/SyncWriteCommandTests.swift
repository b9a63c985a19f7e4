import CapitalCore
import Foundation
import Testing

@testable import CapitalStore

/// Every kind of write the command line makes, on a shared ledger, reaches another device whole:
/// after each command the change sets it recorded are applied to a second device and the two
/// hold the same shared tables. A write path that forgot to record its change (or a group that
/// lost a column) fails here by its command.
@Suite struct SyncWriteCommandTests {
    static let today = ["--today", "2025-04-01"]

    static let commands: [[String]] = [
        ["account", "add", "Wallet", "--kind", "cash", "--floor", "1000", "--note", "the kitchen drawer"],
        ["account", "edit", "Wallet", "--color", "yellow", "--icon", "👛"],
        ["account", "add", "Old tin", "--kind", "cash"],
        ["account", "rm", "Old tin"],
        ["group", "add", "Pocket", "--type", "cash-flow", "--account", "Wallet"],
        ["spend", "350", "Groceries", "--from", "VTB Debit", "--on", "2025-04-02"] + today,
        ["earn", "5000", "Salary", "--to", "Wallet", "--on", "2025-04-02"] + today,
        ["transfer", "1000", "--from", "VTB Debit", "--to", "Wallet", "--on", "2025-04-03"] + today,
        ["loan", "add", "Bike loan", "--principal", "1200000", "--rate", "12", "--term", "24", "--start", "2025-01-15", "--pay-from", "VTB Debit"]
            + today,
        ["loan", "prepay", "Bike loan", "100000", "--on", "2025-05-20", "--every", "monthly on 20"] + today,
        ["card", "add", "Tinkoff", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "VTB Debit"] + today,
        ["deposit", "add", "Alfa deposit", "--rate", "12", "--opened", "2025-01-10", "--maturity", "2025-07-10", "--payout", "VTB Debit"],
        ["budget", "set", "Groceries", "3000"] + today,
        ["due", "add", "bill", "--total", "1000", "--due", "2025-04-10", "--reason", "Water"] + today,
        ["due", "pay", "1", "400"] + today,
        ["rate", "set", "USD", "92.5012", "--on", "2025-03-14"],
        ["category", "add", "Pets", "--icon", "🐈"],
        ["category", "edit", "Groceries", "--color", "green"],
        ["post"] + today,
        ["group", "rm", "Pocket"],
    ]

    @Test func everyWriteCommandOnASharedLedgerArrivesWholeOnAnotherDevice() throws {
        let cli = try CLI.household()
        try Store.open(path: cli.db).startSync()
        let phone = try Store.inMemory()
        try phone.startSync()
        for command in Self.commands {
            cli.ok(command)
            let laptop = try Store.open(path: cli.db)
            let pending = try laptop.pendingChangeSets(limit: .max)
            try phone.applyRemote(pending)
            for set in pending { try laptop.acknowledge(set.id, serverSeq: set.deviceSeq) }
            #expect(try phone.sharedTables() == laptop.sharedTables(), "after capital \(command.joined(separator: " "))")
            #expect(try phone.syncCanonical() == laptop.syncCanonical(), "after capital \(command.joined(separator: " "))")
        }
    }
}

@Suite struct SyncCheckTests {
    @Test func checkNamesASharedRecordWrittenBehindCapitalsBack() throws {
        let cli = try CLI.household()
        try Store.open(path: cli.db).startSync()
        cli.ok(["spend", "350", "Groceries", "--from", "VTB Debit", "--on", "2025-04-02", "--today", "2025-04-01"])
        #expect(cli.ok(["check"]).contains("ok"))
        let cash = try RawDatabase.read(cli.db) { db in try String.fetchOne(db, sql: "SELECT id FROM account WHERE name = 'Cash'") ?? "" }
        try RawDatabase.write(cli.db) { db in try db.execute(sql: "UPDATE account SET floorMinor = 12300 WHERE id = ?", arguments: [cash]) }
        let result = cli.run(["check"])
        #expect(result.status == 2, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("sync: account \(cash): was written but no change set records it (a write outside capital?)"), "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("sync: account \(cash): limits holds {\"floorMinor\":12300,\"level\":null}, the shared state says {\"floorMinor\":")
            }, "\(lines)")
    }
}
