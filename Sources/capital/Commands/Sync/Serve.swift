import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Capital {
    /// `capital serve …`: runs `capital-server` (built beside `capital`) with the same arguments,
    /// so that the CLI itself never loads the server's libraries.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Run the sync server, and manage who may sign in to it (capital serve --help for more).",
            discussion: CommandConfiguration.discussion(
                "Runs capital-server, installed beside capital. See docs/server.md.",
                [
                    "capital serve --data ~/capital-server", "capital serve user add anna --data ~/capital-server",
                    "capital serve user list --data ~/capital-server",
                    "capital serve migrate --database postgres://capital@127.0.0.1/capital",
                    "capital serve --database postgres://capital@127.0.0.1/capital",
                ]))

        @Argument(
            parsing: .captureForPassthrough,
            help: "What capital-server takes: --data DIR or --database postgres://USER@HOST/DB [--host H] [--port P], or user …, or migrate …")
        var arguments: [String] = []

        func run() throws {
            let server = Self.serverPath()
            let present = FileManager.default.isExecutableFile(atPath: server)
            // Without capital-server, `capital serve --help` is still this command's help.
            if !present, ["--help", "-h", "help"].contains(arguments.first ?? "") {
                Console.current.write(Capital.helpMessage(for: Self.self) + "\n")
                Console.current.writeError(
                    "capital: note: capital-server is not beside capital (\(server)), so this is capital's help for it: build it with `swift build --product capital-server`\n"
                )
                return
            }
            guard present else {
                throw CLIError("capital serve needs capital-server beside capital (\(server)): build it with `swift build --product capital-server`")
            }
            let argv = ([server] + arguments).map { strdup($0) } + [nil]
            execv(server, argv)
            throw CLIError("capital serve: could not run \(server): \(String(cString: strerror(errno)))")
        }

        /// `$CAPITAL_SERVER`, else `capital-server` in the folder of this executable.
        static func serverPath() -> String {
            if let path = Console.current.environment["CAPITAL_SERVER"], !path.isEmpty { return path }
            let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("capital-server").path
        }
    }
}
