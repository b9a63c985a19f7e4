import Foundation
import Testing

/// Issue 17, friction: the README's "Next steps" run in order on a fresh database without an error
/// (as a newcomer types them, on today's date; files they write land in the test's folder).
@Suite("README: next steps")
struct ReadmeStepsTests {
    /// The commands of the README's "Next steps" block, comments dropped, `capital` dropped.
    static func steps() throws -> [[String]] {
        let readme = try String(contentsOfFile: CLI.root.appendingPathComponent("README.md").path, encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Next steps").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        return block.split(separator: "\n").map { line in
            var words = DocExamplesTests.split(String(line))
            if let comment = words.firstIndex(where: { $0.hasPrefix("#") }) { words.removeSubrange(comment...) }
            return Array(words.dropFirst())
        }
    }

    @Test func theNextStepsRunInOrderWithoutAnError() throws {
        let steps = try Self.steps()
        #expect(steps.count >= 20)
        let cli = try CLI()
        for step in steps {
            // What a step writes goes to this test's folder, not the repository.
            var args = step
            for (index, word) in args.enumerated() where index > 0 && (args[index - 1] == "--out" || args[index - 1] == "backup") {
                args[index] = cli.path(URL(fileURLWithPath: word).lastPathComponent)
            }
            let result = cli.run(args)
            let finding = ["remind", "check"].contains(step.first ?? "") && result.status == 2
            #expect(result.status == 0 || finding, "capital \(step.joined(separator: " ")): \(result.stderr)")
        }
    }
}
