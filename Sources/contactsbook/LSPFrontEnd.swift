import ContactsApp
import ContactsLSP
import SceneCore
import SceneLSP
import SceneRPC

/// `contactsbook --lsp`: a language server for mail drafts over stdio, on SceneRPC's JSON-RPC
/// layer (its framing, limits and errors); stdout carries protocol messages only.
func runLSPServer(
    book: OpenedBook, limits: FrameLimits, changes: ChangeHub, progress: ProgressHub,
    log: @escaping RPCServer.Log
) -> Int32 {
    let features = ContactsLanguageFeatures(environment: book.environment, log: log)
    let lsp = LSPServer(
        name: ContactsBookCommand.serverInfo.name, version: ContactsBookCommand.serverInfo.version,
        features: features, log: log)
    // No `changes` for the RPC server itself: LSP has no `session/dataChanged`; the features
    // hear this session's changes (an add) from `changes`, and other processes' from the
    // book's watch, and publish fresh diagnostics.
    let server = RPCServer(
        session: book.session, info: ContactsBookCommand.serverInfo, limits: limits,
        progress: progress, log: log, protocolHandler: lsp)
    lsp.attach(to: server, changes: changes)
    return server.run(watch: book.watch, beforeWaiting: book.store.letOpenFinish)
}
