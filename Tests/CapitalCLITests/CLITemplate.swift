import Foundation

/// A ledger built once per test process by running commands, then copied for each test that
/// starts from it: a copy is one file copy, where building it again is several processes that
/// each write to SQLite.
final class CLITemplate: Sendable {
    private let path: Result<String, CLI.TemplateError>

    /// The ledger `capital` leaves after running each of `commands` in turn on a fresh database.
    init(_ name: String, _ commands: [[String]]) {
        path = Result { () throws(CLI.TemplateError) -> String in
            let target = URL(fileURLWithPath: CLITemplate.folder).appendingPathComponent("\(name).sqlite").path
            guard let cli = try? CLI() else { throw CLI.TemplateError(message: "no temporary folder") }
            for command in commands {
                let result = cli.run(command)
                guard result.status == 0 else { throw CLI.TemplateError(message: "building template '\(name)': capital \(command): \(result)") }
            }
            do { try FileManager.default.copyItem(atPath: cli.db, toPath: target) } catch {
                throw CLI.TemplateError(message: "copying template '\(name)': \(error)")
            }
            return target
        }
    }

    /// A fresh CLI whose database is a copy of the template.
    func copy() throws -> CLI {
        let cli = try CLI()
        try FileManager.default.copyItem(atPath: try path.get(), toPath: cli.db)
        return cli
    }

    /// `capital init` and a default debit account, `VTB Debit`: what `CLI.initialized()` makes.
    static let initialized = CLITemplate("initialized", [["init"], ["account", "add", "VTB Debit", "--kind", "debit", "--default"]])

    /// Where templates live: one folder per test process, removed when it exits.
    private static let folder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-cli-templates-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: CLITemplate.folder) }
        return folder.path
    }()
}
