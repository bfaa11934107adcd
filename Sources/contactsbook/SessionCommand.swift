import ArgumentParser
import ContactsApp
import Foundation
import SceneCore
import SceneREPL
import SceneRPC

/// `contactsbook [session]`: the REPL on a terminal, the line session on a pipe, or strict
/// JSON-RPC with `--rpc`; the default when no subcommand is named.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Run the REPL, a line session or JSON-RPC on stdin (the default).",
        discussion: "With stdin not a terminal, reads one command per line (try 'help').")

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Stop at the first command that fails.")
    var bail = false

    @Flag(
        name: .long, help: "Run the interactive REPL (the default when stdin is a terminal); stdin must be a terminal.")
    var repl = false

    @Flag(
        name: .long,
        help: "Speak strict JSON-RPC 2.0 on stdin/stdout (Content-Length or newline-delimited); see Protocol.md.")
    var rpc = false

    @Flag(
        name: .long,
        help: "Serve the book to AI agents: an MCP server on stdin/stdout (newline-delimited JSON); see Protocol.md.")
    var mcp = false

    @Flag(
        name: .long,
        help: "Serve mail drafts to editors: a Language Server on stdin/stdout (Content-Length); see Protocol.md.")
    var lsp = false

    @Flag(name: .long, help: "Print every JSON-RPC method and notification with JSON Schema, then exit.")
    var apiInfo = false

    @Option(
        name: .long,
        help: ArgumentHelp("Largest JSON-RPC message (or NDJSON line) accepted, in bytes.", valueName: "bytes"))
    var rpcMaxMessage = FrameLimits().maxBodyBytes

    @Option(
        name: .long, help: ArgumentHelp("Largest Content-Length header block accepted, in bytes.", valueName: "bytes"))
    var rpcMaxHeader = FrameLimits().maxHeaderBytes

    @Option(name: .long, help: ArgumentHelp("Most messages in one JSON-RPC batch.", valueName: "count"))
    var rpcMaxBatch = FrameLimits().maxBatchLength

    @Option(name: .long, help: "Contacts per page of the list (1-\(ContactLimits.maximumPageSize)).")
    var pageSize = 20

    func validate() throws {
        if rpc && repl { throw ValidationError("--rpc and --repl exclude each other") }
        if mcp && (rpc || repl) { throw ValidationError("--mcp and \(rpc ? "--rpc" : "--repl") exclude each other") }
        if lsp && (mcp || rpc || repl) {
            throw ValidationError("--lsp and \(mcp ? "--mcp" : rpc ? "--rpc" : "--repl") exclude each other")
        }
        guard (1...ContactLimits.maximumPageSize).contains(pageSize) else {
            throw ValidationError("--page-size must be from 1 to \(ContactLimits.maximumPageSize)")
        }
        guard rpcMaxMessage >= 64 else { throw ValidationError("--rpc-max-message must be at least 64 bytes") }
        guard rpcMaxHeader >= 32 else { throw ValidationError("--rpc-max-header must be at least 32 bytes") }
        guard rpcMaxBatch >= 1 else { throw ValidationError("--rpc-max-batch must be at least 1") }
    }

    func run() throws {
        try SessionRun(
            book: global.book, bail: bail, repl: repl, rpc: rpc, mcp: mcp, lsp: lsp, apiInfo: apiInfo,
            limits: FrameLimits(
                maxHeaderBytes: rpcMaxHeader, maxBodyBytes: rpcMaxMessage,
                maxBatchLength: rpcMaxBatch),
            pageSize: pageSize
        ).run()
    }
}

/// A session's settings, validated (`SessionCommand.validate()`), as plain values: what
/// `SessionCommand` parsed, or what `FastCommandLine` read by hand for the common shapes
/// (`--rpc`, `--mcp`, `--lsp`, a piped session), which never reflects over the command tree.
struct SessionRun {
    var book: BookOptions
    var bail = false
    var repl = false
    var rpc = false
    var mcp = false
    var lsp = false
    var apiInfo = false
    var limits = FrameLimits()
    var pageSize = 20

    func run() throws {
        let info = ContactsBookCommand.serverInfo
        if apiInfo {
            print(RPCServer.apiInfo(sceneKinds: ContactsSceneFactory.sceneKinds, info: info))
            return
        }
        let logger = book.bootstrapLogging()
        logger.debug("opening the book", metadata: ["db": "\(book.db ?? "default")"])
        let changes = ChangeHub()
        let progress = ProgressHub()
        // The front end a change set names in `history`; all but the piped line session hear of
        // other processes' changes.
        let origin = lsp ? "lsp" : mcp ? "mcp" : rpc ? "rpc" : repl || REPL.isTerminal(fd: 0) ? "repl" : "line"
        // The JSON-RPC front ends answer `initialize` while the book opens (openSession).
        let book = try openSession(
            self.book, origin: origin, watching: origin != "line", pageSize: pageSize,
            changes: changes, progress: progress, inBackground: lsp || mcp || rpc, readingFirst: origin == "line")
        // The front ends read stdin on this thread and leave no work behind when they return.
        defer { closeBeforeExit(book.store) }
        let session = book.session
        if lsp {
            let status = runLSPServer(
                book: book, limits: limits, changes: changes, progress: progress,
                log: { level, text in logger.log(level: level, "\(text)") })
            if status != 0 { throw ExitCode(status) }
            return
        }
        if mcp {
            let status = runMCPServer(
                book: book, limits: limits, changes: changes, progress: progress,
                log: { level, text in logger.log(level: level, "\(text)") })
            if status != 0 { throw ExitCode(status) }
            return
        }
        // Built only for the front ends that speak JSON-RPC (the REPL does not): a server
        // observes the session's changes and progress from the moment it exists.
        func makeServer() -> RPCServer {
            RPCServer(
                session: session, info: info, limits: limits, changes: changes, progress: progress,
                log: { level, text in logger.log(level: level, "\(text)") })
        }
        if rpc {
            let status = makeServer().run(watch: book.watch, beforeWaiting: book.store.letOpenFinish)
            if status != 0 { throw ExitCode(status) }
            return
        }
        if repl || REPL.isTerminal(fd: 0) {
            let status = REPL(
                session: session, environment: ProcessInfo.processInfo.environment,
                progress: progress, greeting: book.greeting, watch: book.watch
            ).run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        let streams = StandardStreams()
        let lines = LineSession(session: session, streams: streams, bail: bail, width: StandardStreams.outputColumns)
        let mixed = MixedLineSession(lines: lines, server: makeServer(), streams: streams)
        let status = mixed.run { readLine(strippingNewline: true) }
        if status != 0 { throw ExitCode(status) }
    }
}
