import ContactsApp
import SceneMCP

/// Each contact as an MCP resource, `contact://UID`, its text a vCard 4.0 card (VCardWriter's).
/// A contact sharing its UID with an older one (the same card on two servers) is named by the
/// UID `export` writes it with (`ImportExportWorker.exported`), so each has a URI of its own.
public final class ContactResources: MCPResourceProvider {
    static let scheme = "contact://"
    static let mimeType = "text/vcard"
    /// Resources per page of `resources/list`.
    static let pageSize = 100
    private let worker: ContactsWorker
    private let store: ContactStore

    public init(environment: ContactsEnvironment) {
        worker = ContactsWorker(environment: environment)
        store = environment.store
    }

    public var templates: [MCPResourceTemplate] {
        [
            MCPResourceTemplate(
                uriTemplate: Self.scheme + "{uid}", name: "contact",
                description: "one contact as a vCard 4.0 card, by its uid (get and search give it)",
                mimeType: Self.mimeType)
        ]
    }

    public func list(cursor: String?) throws -> (resources: [MCPResource], nextCursor: String?) {
        let page = cursor.flatMap(Int.init).map { max(1, $0) } ?? 1
        let result = try worker.page(ContactQuery(search: "", sort: .last, page: page, limit: Self.pageSize))
        // The page's UIDs held by other contacts too: oldest first, as an export decides.
        let holders = Dictionary(grouping: try store.contacts(uids: result.contacts.map(\.uid)), by: \.uid)
            .compactMapValues { $0.count > 1 ? $0.compactMap(\.id) : nil }
        let resources = result.contacts.map {
            MCPResource(
                uri: Self.scheme + ImportExportWorker.exported($0, shared: holders).uid, name: $0.fullName,
                mimeType: Self.mimeType)
        }
        return (resources, page * Self.pageSize < result.total ? String(page + 1) : nil)
    }

    public func read(uri: String) throws -> MCPResourceContents? {
        guard let contact = try contact(at: uri) else { return nil }
        let holders = try store.contacts(uids: [contact.uid]).compactMap(\.id)
        let shared = holders.count > 1 ? [contact.uid: holders] : [:]
        return MCPResourceContents(
            uri: uri, mimeType: Self.mimeType,
            text: VCardWriter(version: .v4).card(for: ImportExportWorker.exported(contact, shared: shared)))
    }

    public func changeID(of uri: String) throws -> String? {
        try contact(at: uri)?.id.map { String($0) }
    }

    private func contact(at uri: String) throws -> Contact? {
        guard uri.hasPrefix(Self.scheme) else { return nil }
        let uid = String(uri.dropFirst(Self.scheme.count))
        guard !uid.isEmpty else { return nil }
        if let oldest = try store.contacts(uids: [uid]).first { return oldest }
        // Not a stored UID: perhaps one a contact sharing its UID is named by.
        for (shared, ids) in try store.sharedUIDs() {
            for id in ids.dropFirst() where ImportExportWorker.exportedUID(shared, id: id) == uid {
                return try store.contact(id: id)
            }
        }
        return nil
    }
}
