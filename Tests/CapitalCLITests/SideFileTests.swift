import Foundation
import Testing

/// The binary keeps a forecast's ledgers until it exits instead of freeing them (`UntilExit`),
/// never the store they came from: a database's last connection must still close, which
/// checkpoints its log and removes its -wal and -shm files. Only the real process keeps
/// anything, so only it can show this.
@Suite("The real process closes its database")
struct SideFileTests {
    @Test(arguments: [
        ["--today", "2025-04-01", "can-spend", "--why"], ["--today", "2025-04-01", "forecast", "--until", "2025-12"], ["balance"],
    ])
    func answersLeaveNoSideFiles(_ args: [String]) throws {
        let cli = try CLI.household()
        let result = cli.runProcess(args)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(RawDatabase.sideFiles(cli.db) == [], "\(args)")
    }
}
