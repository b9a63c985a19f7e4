import Foundation
import Testing

/// `capital report` in a real browser: `Scripts/report-screenshot.sh` renders the sample's page in
/// headless Chromium at a phone and a desktop width, in the light and the dark theme, and fails on
/// a JS error or any other SEVERE console entry, a blank picture, horizontal overflow at phone
/// width, or a background that does not match the theme. Where chromium, chromedriver, Selenium or
/// Pillow are missing the script exits 77 and the test says it skipped (.ci/run installs them).
@Suite("CLI: report in a browser")
struct ReportBrowserTests {
    static let pictures = ["phone", "desktop"].flatMap { size in ["light", "dark"].map { "report-\(size)-\($0).png" } }
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The whole run, browser start included, takes about 10 s.
    static let timeLimit: TimeInterval = 120

    @Test func theSampleReportRendersAtPhoneAndDesktopWidthInBothThemes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-report-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Kept when the test fails, for the pictures and the log.
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }

        let (status, timedOut, output) = try Self.runScript(into: folder)
        if timedOut {
            keep = true
            Issue.record("Scripts/report-screenshot.sh ran longer than \(Int(Self.timeLimit)) s and was killed; output in \(folder.path):\n\(output)")
            return
        }
        if status == 77 {
            print("ReportBrowserTests skipped: \(output.trimmingCharacters(in: .whitespacesAndNewlines))")
            return
        }
        guard status == 0 else {
            keep = true
            Issue.record("Scripts/report-screenshot.sh exited \(status); pictures in \(folder.path):\n\(output)")
            return
        }
        for name in Self.pictures {
            let path = folder.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else {
                keep = true
                Issue.record("\(name) was not written:\n\(output)")
                continue
            }
            #expect(Array(data.prefix(8)) == Self.pngSignature, "\(name) is not a PNG")
            #expect(data.count > 10_000, "\(name) is only \(data.count) bytes")
            #expect(output.contains("wrote \(path)"), "the script did not say it wrote \(name):\n\(output)")
        }
    }

    /// Runs `bash script folder` (default `Scripts/report-screenshot.sh`) from the package root with
    /// `CAPITAL_BIN` set to the built binary, killed after `timeLimit` (the scripts stop their
    /// browser run after 100 s by themselves): its exit status, whether it was killed, and its
    /// stdout and stderr together.
    static func runScript(_ script: String = "Scripts/report-screenshot.sh", into folder: URL) throws -> (
        status: Int32, timedOut: Bool, output: String
    ) {
        let log = folder.appendingPathComponent("browser.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, folder.path]
        process.currentDirectoryURL = CLI.root
        var environment = ProcessInfo.processInfo.environment
        environment["CAPITAL_BIN"] = CLI.executable
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()

        let deadline = Date().addingTimeInterval(timeLimit)
        while process.isRunning, Date() < deadline { usleep(100_000) }
        let timedOut = process.isRunning
        if timedOut {
            // SIGKILL: the child inherits this thread's signal mask, where SIGTERM is blocked. Sent to
            // the child's own process group where it has one (Process makes one on Linux), so that
            // whatever the script started goes too; never to this process's group.
            let pid = process.processIdentifier
            if getpgid(pid) == pid { kill(-pid, SIGKILL) }
            kill(pid, SIGKILL)
        }
        process.waitUntilExit()
        let output = String(decoding: FileManager.default.contents(atPath: log.path) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, timedOut, output)
    }
}
