// swift-tools-version:6.0
import Foundation
import PackageDescription

/// `CONTACTSBOOK_STATIC_EXECUTABLE=1 swift build -c release --static-swift-stdlib` (what
/// `scripts/run` and `bench/run` do) links one fully static executable; a plain
/// `swift build -c release` links as any Swift package does, and works on a fresh machine.
let staticExecutable = Context.environment["CONTACTSBOOK_STATIC_EXECUTABLE"] == "1"

/// A release build on x86_64 Linux (README's install, `scripts/run`, `bench/run`) links the Swift
/// runtime, Foundation, SQLite and the C++ library statically and neither libcurl nor libxml2:
/// those two are loaded on first use (CCurlSupport, CLazyXML2), so a `query`, `--help` or a
/// session maps 4 libraries instead of about 60 (bench/STARTUP.md, issue 32). Elsewhere (and in
/// debug builds), FoundationXML is the toolchain's shared library, which links libxml2 itself.
#if arch(x86_64)
    /// Whether one of these folders holds the static archive `name` (Debian's and Ubuntu's -dev
    /// packages install them; elsewhere the release build links the shared library as before).
    func hasArchive(_ name: String, in folders: [String]) -> Bool {
        folders.contains { FileManager.default.fileExists(atPath: $0 + "/" + name) }
    }
    let gccFolders = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/gcc/x86_64-linux-gnu")) ?? [])
        .map { "/usr/lib/gcc/x86_64-linux-gnu/" + $0 }
    /// SQLite and the C++ library from their static archives where they are installed:
    /// `linker/sqlite/libsqlite3.so` and `linker/stdc++/libstdc++.so` are linker scripts naming the
    /// archives, found before the shared libraries for GRDB's `-lsqlite3` and the runtime's
    /// `-lstdc++`. Two libraries fewer to map, relocate and bind at every start; libstdc++'s own
    /// start-up goes too (bench/FINDINGS.md, issue 32: a `query` 0.77× the instructions).
    let staticArchiveFolders: [String] =
        (hasArchive("libsqlite3.a", in: ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"])
            ? ["-L", Context.packageDirectory + "/linker/sqlite"] : [])
        + (hasArchive("libstdc++.a", in: gccFolders)
            // Named again after ICU's archive, which needs it and comes after the runtime's `-lstdc++`.
            ? ["-L", Context.packageDirectory + "/linker/stdc++", "-lstdc++"] : [])
    let lazyLibrariesRelease: [LinkerSetting] = [
        // The modules are compiled against the toolchain's shared Foundation (compiling with
        // `-static-stdlib` would have FoundationXML ask for `-lxml2`), so the static archives those
        // modules need are named here, dependants first.
        .unsafeFlags(
            [
                "-static-stdlib", "-lFoundationXML", "-l_CFXMLInterface", "-lFoundation",
                "-lFoundationInternationalization", "-lFoundationEssentials", "-lCoreFoundation",
                "-l_FoundationCShims", "-l_FoundationCollections", "-l_FoundationICU", "-lswiftSynchronization",
                // `-static-stdlib` exports every symbol of ours (`-export-dynamic`), and at each start
                // the runtime's `dladdr` of its own image walks them all (14,414): ~0.48M instructions.
                // Nothing looks our symbols up by name (the lazy libraries are `dlsym`ed by handle).
                "-Xlinker", "--no-export-dynamic",
            ] + staticArchiveFolders,
            .when(platforms: [.linux], configuration: .release))
    ]
#else
    let lazyLibrariesRelease: [LinkerSetting] = []
#endif

/// libedit (and libtinfo, libbsd, libmd behind it) loaded when the REPL starts (CLazyEdit), not
/// mapped by every `query`, `--rpc` or piped command: stubs for x86_64 Linux, except in the fully
/// static executable, which links it (bench/STARTUP.md, issue 32).
#if arch(x86_64)
    let lazyLibEdit = !staticExecutable
#else
    let lazyLibEdit = false
#endif

/// Release code asks the runtime for a generic type's metadata through its accessor, passing the
/// conformances it knows, not through a mangled name: from a mangled name the runtime checks each
/// requirement again (`Dictionary<String, …>`: `String: Hashable`), and each first check of a type
/// and a protocol is a scan of every conformance record of the binary, ~0.43M instructions
/// (bench/FINDINGS.md, `start6`). Our targets only: SwiftPM sets no flags on the dependencies, so
/// `scripts/build-release` (what README installs) passes the same flag to every module.
let directMetadataAccess: [SwiftSetting] = [
    .unsafeFlags(
        ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
]

let package = Package(
    name: "ContactsBook",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "contactsbook", targets: ["contactsbook"]),
        .library(name: "SceneCore", targets: ["SceneCore"]),
        .library(name: "SceneRPC", targets: ["SceneRPC"]),
        .library(name: "JSONBytes", targets: ["JSONBytes"]),
        .library(name: "ContactsApp", targets: ["ContactsApp"]),
        .library(name: "SceneREPL", targets: ["SceneREPL"]),
        .library(name: "SceneMCP", targets: ["SceneMCP"]),
        // For the MCP fuzz harness (fuzz/harnesses), which serves the book's tools.
        .library(name: "ContactsMCP", targets: ["ContactsMCP"]),
        .library(name: "SceneLSP", targets: ["SceneLSP"]),
        .library(name: "ContactsLSP", targets: ["ContactsLSP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        // The reusable Clean Swift core: scenes, actions, router, session, front ends.
        // It knows nothing of contacts.
        .target(name: "SceneCore", swiftSettings: directMetadataAccess),
        // The one JSON layer: reads and writes JSON bytes for the app's columns and the JSON-RPC front end.
        .target(name: "JSONBytes", swiftSettings: directMetadataAccess),
        // libedit's native API (histedit.h), with typed wrappers for its variadic calls.
        // Its headers only where CLazyEdit loads libedit (pkg-config's `-ledit` would link it).
        lazyLibEdit
            ? .systemLibrary(name: "CLibEdit")
            : .systemLibrary(name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        // libedit's functions under their own names, loading libedit.so.2 when the REPL first calls one.
        .target(name: "CLazyEdit"),
        // C state the REPL needs: the SIGINT flag and handler, the standard streams, the locale.
        .target(name: "CLibEditSupport"),
        // A helper command run in a process group of its own, under a deadline (the password command).
        .target(name: "CProcessSupport"),
        // libcurl's easy interface (libcurl4-openssl-dev, scripts/setup): the sync's HTTP client on Linux.
        // Its headers only: no pkg-config, so nothing asks the linker for libcurl (CCurlSupport
        // loads it on first use, and a `query` never maps it: bench/STARTUP.md, issue 32).
        .systemLibrary(name: "CCurl"),
        // Typed, non-variadic wrappers for libcurl's curl_easy_setopt and curl_easy_getinfo, and
        // libcurl's functions under their own names, loading libcurl.so.4 on first use.
        .target(name: "CCurlSupport", dependencies: ["CCurl", "CLazyXML2"]),
        // libxml2's functions under their own names, loading libxml2.so.2 on first use: what
        // FoundationXML (linked statically into a release build) and the sync call instead of
        // linking libxml2 (stubs for x86_64 Linux; bench/STARTUP.md, issue 32).
        .target(name: "CLazyXML2"),
        // libxml2's headers and link, for the fully static executable and platforms without
        // CLazyXML2's stubs (libxml2-dev, scripts/setup).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // libxml2's push parser behind plain C functions (CardDAV answers read as they arrive): its
        // headers (and ICU's, which they include) stay out of Swift. On Linux it calls CLazyXML2's
        // stubs, so libxml2 is loaded only when a sync reads an answer.
        .target(
            name: "CLibXML2Support",
            dependencies: staticExecutable
                ? ["CLibXML2"]
                : [
                    .target(name: "CLazyXML2", condition: .when(platforms: [.linux])),
                    .target(name: "CLibXML2", condition: .when(platforms: [.macOS])),
                ]),
        // One LDAP search per call (connect, StartTLS or LDAPS, bind, search under a deadline) for
        // the organisation's directories (issue 31), calling OpenLDAP's libldap (libldap-dev,
        // scripts/setup) under its own names and loading it on first use, as CCurlSupport does
        // libcurl: the headers only, nothing asks the linker for libldap, and a `query` without a
        // directory never maps it.
        .target(name: "CLDAPSupport"),
        // The interactive front end: a libedit REPL driving a SceneCore session.
        .target(
            name: "SceneREPL",
            dependencies: ["SceneCore", "CLibEdit", "CLibEditSupport"]
                + (lazyLibEdit ? [.target(name: "CLazyEdit", condition: .when(platforms: [.linux]))] : []),
            swiftSettings: directMetadataAccess,
            // Where libedit is linked, named here as the module map no longer does (CLazyEdit).
            linkerSettings: [lazyLibEdit ? .linkedLibrary("edit", .when(platforms: [.macOS])) : .linkedLibrary("edit")]),
        // Test support for app authors: drive a scene and assert every ViewModel and route.
        .target(name: "SceneCoreTesting", dependencies: ["SceneCore"]),
        // The JSON-RPC 2.0 front end: framing, protocol, dispatch to the session. Core only.
        .target(
            name: "SceneRPC",
            dependencies: ["SceneCore", "JSONBytes", .product(name: "Logging", package: "swift-log")],
            swiftSettings: directMetadataAccess),
        // The Model Context Protocol over SceneRPC's JSON-RPC layer: tools, resources, both
        // protocol generations. Core only: the app hands it its tools.
        .target(
            name: "SceneMCP", dependencies: ["SceneCore", "SceneRPC", "JSONBytes"], swiftSettings: directMetadataAccess),
        // The Language Server Protocol over SceneRPC's JSON-RPC layer: lifecycle, document sync,
        // position encodings. Core only: the app hands it its features.
        .target(
            name: "SceneLSP", dependencies: ["SceneCore", "SceneRPC", "JSONBytes"], swiftSettings: directMetadataAccess),
        // The contacts app: scenes, workers, stores. It knows nothing of terminals or JSON-RPC.
        .target(
            name: "ContactsApp",
            dependencies: [
                "SceneCore",
                "JSONBytes",
                "CProcessSupport",
                "CLibXML2Support",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the one loop that steps a statement itself (`countingRows`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "CSV", package: "CSV.swift"),
            ]
                + (staticExecutable
                    ? []
                    : [
                        // The sync's HTTP client on Linux (`Sync/DAV/CurlTransport.swift`).
                        .target(name: "CCurlSupport", condition: .when(platforms: [.linux])),
                        .target(name: "CLazyXML2", condition: .when(platforms: [.linux])),
                        // The directories' LDAP client (`Directory/OpenLDAPClient.swift`); a fully static
                        // executable cannot dlopen it, and its directories say which build reaches them.
                        .target(name: "CLDAPSupport", condition: .when(platforms: [.linux])),
                    ]),
            // A fully static executable cannot link libcurl (there is no static libcurl with its
            // dependencies): that build leaves libcurl and, in release, URLSession out, and its
            // `sync` says which build syncs (`Sync/DAV/URLSessionTransport.swift`).
            swiftSettings: directMetadataAccess
                + (staticExecutable
                    ? [
                        .define("CONTACTSBOOK_NO_LIBCURL"),
                        .define("CONTACTSBOOK_NO_URLSESSION", .when(platforms: [.linux], configuration: .release)),
                    ] : [])
        ),
        // The book's MCP tools and resources, declared from the app's scenes and actions.
        .target(
            name: "ContactsMCP", dependencies: ["ContactsApp", "SceneCore", "SceneMCP", "JSONBytes"],
            swiftSettings: directMetadataAccess),
        // The book in an editor's mail buffer (`--lsp`): the draft's address fields, completion,
        // hover, code actions, diagnostics, and the commands plugins' pickers run.
        .target(
            name: "ContactsLSP", dependencies: ["ContactsApp", "SceneCore", "SceneLSP", "SceneRPC", "JSONBytes"],
            swiftSettings: directMetadataAccess),
        // The composition root.
        .executableTarget(
            name: "contactsbook",
            dependencies: [
                "SceneCore",
                "SceneREPL",
                "SceneRPC",
                "SceneMCP",
                "ContactsApp",
                "ContactsMCP",
                "SceneLSP",
                "ContactsLSP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: directMetadataAccess,
            // With CONTACTSBOOK_STATIC_EXECUTABLE=1, a release build on Linux is one fully static
            // executable (glibc, libstdc++, SQLite and libedit included; libedit's own dependencies
            // listed): no dynamic loader, and a mail client's `contactsbook query` takes about half
            // the time (bench/STARTUP.md). The cost: the executable is not position-independent.
            // Not forced on every release build: without `--static-swift-stdlib` it cannot link
            // (Foundation's static ICU), so the ecosystem's plain command would fail.
            linkerSettings: staticExecutable
                ? [
                    .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release)),
                    .linkedLibrary("tinfo", .when(platforms: [.linux], configuration: .release)),
                    .linkedLibrary("bsd", .when(platforms: [.linux], configuration: .release)),
                    .linkedLibrary("md", .when(platforms: [.linux], configuration: .release)),
                    // FoundationXML's libxml2 (libxml2-dev, scripts/setup) and what it needs.
                    .linkedLibrary("z", .when(platforms: [.linux], configuration: .release)),
                    .linkedLibrary("lzma", .when(platforms: [.linux], configuration: .release)),
                    .linkedLibrary("icuuc", .when(platforms: [.linux], configuration: .release)),
                    .linkedLibrary("icudata", .when(platforms: [.linux], configuration: .release)),
                ] : lazyLibrariesRelease
        ),
        .testTarget(name: "SceneCoreTests", dependencies: ["SceneCore", "SceneCoreTesting"]),
        .testTarget(
            name: "ContactsAppTests",
            dependencies: [
                "ContactsApp", "SceneCore", "SceneCoreTesting", .product(name: "GRDB", package: "GRDB.swift"),
                // The CSV writer our hand-written one is held to (ContactsCSVTests).
                .product(name: "CSV", package: "CSV.swift"),
            ],
            // Sample files from other programs (vCard, CSV), read through Bundle.module.
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "SceneREPLTests", dependencies: ["SceneREPL", "SceneCore"]),
        .testTarget(name: "JSONBytesTests", dependencies: ["JSONBytes"]),
        .testTarget(
            name: "SceneRPCTests",
            dependencies: ["SceneRPC", "SceneCore", "JSONBytes", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "SceneMCPTests", dependencies: ["SceneMCP", "SceneRPC", "SceneCore", "JSONBytes"]),
        .testTarget(
            name: "ContactsMCPTests",
            dependencies: ["ContactsMCP", "SceneMCP", "ContactsApp", "SceneCore", "JSONBytes"]),
        .testTarget(name: "SceneLSPTests", dependencies: ["SceneLSP", "SceneRPC", "SceneCore", "JSONBytes"]),
        .testTarget(
            name: "ContactsLSPTests",
            dependencies: ["ContactsLSP", "SceneLSP", "ContactsApp", "SceneRPC", "SceneCore", "JSONBytes"]),
        .testTarget(name: "EndToEndTests", dependencies: []),
    ],
    swiftLanguageModes: [.v5]
)
