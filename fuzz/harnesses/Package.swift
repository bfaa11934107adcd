// swift-tools-version:6.0
import Foundation
import PackageDescription

// libFuzzer harnesses for the parsers that take outside bytes (issue 18). A package of its own,
// depending on the root package by path, so the root's build never sees `-sanitize=fuzzer`.
// Build and run them with `scripts/fuzz` (which passes `-sanitize=fuzzer,address`); each
// executable is libFuzzer's `main` calling the harness's `LLVMFuzzerTestOneInput`.
//
// The harnesses use `@testable import` to reach internal parsers (the CSV reader, the word
// splitter): debug builds compile every module with testing enabled.
// SwiftPM names a package found by path after its folder, so the root package's name here is
// whatever the clone's folder is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "ContactsBookFuzz",
    dependencies: [.package(path: "../..")],
    targets: [
        // libFuzzer's driver, and what the harnesses share.
        .target(name: "FuzzSupport"),
        // The JSON-RPC frame reader and JSON parser and writer. Thin on purpose: it names only the
        // entry points the server reads a message with, to be re-pointed when the JSON layer moves.
        .executableTarget(name: "fuzz-json", dependencies: [
            "FuzzSupport",
            .product(name: "SceneRPC", package: root),
            .product(name: "JSONBytes", package: root),
        ]),
        // The command-line parser, against the app's real action declarations.
        .executableTarget(name: "fuzz-commandline", dependencies: [
            "FuzzSupport",
            .product(name: "SceneCore", package: root),
            .product(name: "ContactsApp", package: root),
        ]),
        // The vCard reader, and the writer's cards read back.
        .executableTarget(name: "fuzz-vcard", dependencies: ["FuzzSupport", .product(name: "ContactsApp", package: root)]),
        // The CSV reader, and the writer's rows read back.
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzSupport", .product(name: "ContactsApp", package: root)]),
        // The CardDAV answers (multistatus, sync-collection, PROPFIND, DAV errors), and the
        // client's sync, listing, multiget and discovery reading them.
        .executableTarget(name: "fuzz-carddav", dependencies: ["FuzzSupport", .product(name: "ContactsApp", package: root)]),
        // MCP messages through the MCP server over an in-memory book, as `contactsbook --mcp` serves them.
        .executableTarget(name: "fuzz-mcp", dependencies: [
            "FuzzSupport",
            .product(name: "ContactsApp", package: root),
            .product(name: "ContactsMCP", package: root),
            .product(name: "SceneMCP", package: root),
            .product(name: "SceneRPC", package: root),
            .product(name: "SceneCore", package: root),
            .product(name: "JSONBytes", package: root),
        ]),
    ]
)
