// swift-tools-version: 6.1
import PackageDescription

import class Foundation.ProcessInfo

let package = Package(
    name: "capital",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CapitalCore", targets: ["CapitalCore"]),
        .library(name: "CapitalStore", targets: ["CapitalStore"]),
        .library(name: "CapitalKit", targets: ["CapitalKit"]),
        .library(name: "CapitalWeb", targets: ["CapitalWeb"]),
        .executable(name: "capital", targets: ["capital"]),
        .executable(name: "capital-server", targets: ["capital-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        // The sync server (`capital-server`, which `capital serve` runs): the CLI links none of these.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "3.12.3"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", exact: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // `capital serve --database postgres://…`: the server's storage in PostgreSQL.
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.25.0"),
        // `GET /metrics`: swift-metrics' counters and timers, exposed in Prometheus' text format.
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
    ],
    targets: [
        // The engine: no dependencies, no Foundation.
        .target(name: "CapitalCore"),
        .target(
            name: "CapitalStore",
            dependencies: [
                "CapitalCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_system_errno: why a write failed (a full disk, a file-size limit).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // The ledger file reader also imports CYaml, the libyaml target inside Yams, for its
                // event parser (LedgerFile/YAMLNode.swift): Yams exports no product of it, so this
                // product is what brings it in (a package's other targets cannot be named here).
                .product(name: "Yams", package: "Yams"),
            ],
            // The calendar data files are compiled in (CalendarData.swift), not shipped as resources.
            exclude: ["Calendars"]
        ),
        // The use cases every front end shares: typed inputs, typed results, errors as data.
        .target(name: "CapitalKit", dependencies: ["CapitalCore", "CapitalStore"]),
        // `capital serve`: each shared ledger's log, merged state and snapshots; people, tokens and
        // roles; the HTTP routes.
        .target(
            name: "CapitalServer",
            dependencies: [
                "CapitalCore", "CapitalStore", "CapitalKit", "CapitalOutput", "CapitalWeb", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The server's own executable, so that the CLI starts without loading the server's libraries.
        .executableTarget(
            name: "capital-server",
            dependencies: ["CapitalServer", "CapitalStore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The HTML report and SVG charts: renders CapitalKit's results, decides nothing; no Foundation.
        .target(name: "CapitalWeb", dependencies: ["CapitalCore", "CapitalStore", "CapitalKit"]),
        // Answers as reports (tables, CSV, JSON): what the CLI prints and the server answers, alike.
        .target(name: "CapitalOutput", dependencies: ["CapitalCore", "CapitalStore", "CapitalKit"]),
        // libcurl for `capital sync`, opened with dlopen on the first request: the CLI never links it.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .executableTarget(
            name: "capital",
            dependencies: [
                "CCurl",
                "CapitalCore",
                "CapitalStore",
                "CapitalKit",
                "CapitalWeb",
                "CapitalOutput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the test targets share (the hostile-input draws); not a product.
        .target(name: "CapitalTestSupport", dependencies: ["CapitalCore"], path: "Tests/CapitalTestSupport"),
        .testTarget(name: "CapitalCoreTests", dependencies: ["CapitalCore", "CapitalTestSupport"]),
        .testTarget(
            name: "CapitalStoreTests",
            dependencies: [
                "CapitalCore", "CapitalStore", "CapitalTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                // The reference the ledger reader's own composer is checked against.
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(name: "CapitalKitTests", dependencies: ["CapitalCore", "CapitalStore", "CapitalKit", "CapitalServer", "CapitalTestSupport"]),
        .testTarget(
            name: "CapitalServerTests",
            dependencies: [
                "CapitalCore", "CapitalStore", "CapitalKit", "CapitalServer", "CapitalTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "CapitalWebTests", dependencies: ["CapitalCore", "CapitalWeb"]),
        .testTarget(
            name: "CapitalCLITests",
            dependencies: [
                "CCurl", "CapitalCore", "CapitalStore", "CapitalKit", "CapitalWeb", "CapitalOutput", "capital", "capital-server",
                "CapitalTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: []
        ),
    ],
    swiftLanguageModes: [.v6]
)

// package-benchmark adds minutes to a cold build, so its target joins the package only on request:
// `CAPITAL_BENCHMARKS=1 swift package benchmark`.
if ProcessInfo.processInfo.environment["CAPITAL_BENCHMARKS"] == "1" {
    package.dependencies.append(
        .package(
            url: "https://github.com/ordo-one/package-benchmark.git",
            exact: "1.38.1",
            traits: ["MallocInterposer"]
        )
    )
    package.targets.append(
        .executableTarget(
            name: "CapitalBenchmarks",
            dependencies: [
                "CapitalCore",
                "CapitalStore",
                "CapitalKit",
                "CapitalWeb",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/CapitalBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        )
    )
}
