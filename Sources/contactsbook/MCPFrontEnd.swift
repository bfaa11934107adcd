import ContactsApp
import ContactsMCP
import SceneCore
import SceneMCP
import SceneRPC

/// `contactsbook --mcp`: the book's tools and resources over stdio, on SceneRPC's JSON-RPC
/// layer (its framing, limits and errors); stdout carries protocol messages only.
func runMCPServer(
    book: OpenedBook, limits: FrameLimits, changes: ChangeHub, progress: ProgressHub,
    log: @escaping RPCServer.Log
) -> Int32 {
    let session = book.session
    let mcp = MCPServer(
        name: ContactsBookCommand.serverInfo.name, version: ContactsBookCommand.serverInfo.version,
        instructions: """
            A contacts book. search finds contacts (rows carry their number); get gives every field, the uid and \
            the version; update needs that version and refuses a contact changed since. contact://UID reads a \
            contact as a vCard.
            """,
        tools: ContactsTools(session: session).all, resources: ContactResources(environment: book.environment))
    // No `changes` for the server itself: MCP has no `session/dataChanged`; MCPServer turns
    // changes, this session's and (through the book's watch) other processes', into
    // `notifications/resources/updated` for the resources a client subscribed to.
    let server = RPCServer(
        session: session, info: ContactsBookCommand.serverInfo, limits: limits,
        progress: progress, log: log, protocolHandler: mcp)
    mcp.attach(to: server, changes: changes)
    return server.run(watch: book.watch, beforeWaiting: book.store.letOpenFinish)
}
