import JSONBytes

/// One resource as `resources/list` lists it.
public struct MCPResource: Equatable, Sendable {
    public let uri: String
    public let name: String
    public let mimeType: String

    public init(uri: String, name: String, mimeType: String) {
        self.uri = uri; self.name = name; self.mimeType = mimeType
    }

    var json: JSONValue { ["uri": .string(uri), "name": .string(name), "mimeType": .string(mimeType)] }
}

/// A family of resources named by an RFC 6570 template (`contact://{uid}`).
public struct MCPResourceTemplate: Equatable, Sendable {
    public let uriTemplate: String
    public let name: String
    public let description: String
    public let mimeType: String

    public init(uriTemplate: String, name: String, description: String, mimeType: String) {
        self.uriTemplate = uriTemplate; self.name = name; self.description = description; self.mimeType = mimeType
    }

    var json: JSONValue {
        [
            "uriTemplate": .string(uriTemplate), "name": .string(name), "description": .string(description),
            "mimeType": .string(mimeType),
        ]
    }
}

/// The text of one resource.
public struct MCPResourceContents: Equatable, Sendable {
    public let uri: String
    public let mimeType: String
    public let text: String

    public init(uri: String, mimeType: String, text: String) {
        self.uri = uri; self.mimeType = mimeType; self.text = text
    }

    var json: JSONValue { ["uri": .string(uri), "mimeType": .string(mimeType), "text": .string(text)] }
}

/// Where an app's resources come from. The core pages the list by an opaque cursor the
/// provider makes.
public protocol MCPResourceProvider: AnyObject {
    var templates: [MCPResourceTemplate] { get }
    /// One page of resources, and the cursor of the next page (nil on the last).
    func list(cursor: String?) throws -> (resources: [MCPResource], nextCursor: String?)
    /// The resource at `uri`, or nil when there is none.
    func read(uri: String) throws -> MCPResourceContents?
    /// The id the app's `DataChange`s name the record at `uri` by, so a subscriber hears of
    /// changes to it, deletion included (nil: no such record).
    func changeID(of uri: String) throws -> String?
}
