/// What a ViewController displays: formatted data, ready for any front end.
///
/// The Presenter fills in strings (capitalised names, phone masks); the ViewModel says how
/// they are laid out (`layout`); each front end draws that layout its own way (an aligned,
/// sanitised table on a terminal, plain lines on a pipe) or sends the ViewModel as JSON.
public protocol ViewModel: Encodable, Sendable {
    /// The name of this kind of ViewModel in JSON results, e.g. `"contactList"`.
    static var kind: String { get }
    var layout: DisplayLayout { get }
}

/// A front-end-neutral layout. Small on purpose: every front end must draw all of it.
public indirect enum DisplayLayout: Equatable, Sendable {
    case message(Message)
    /// Rows under titled columns, with a caption below ("Page 1 of 3 · 42 contacts").
    case table(columns: [Column], rows: [[String]], caption: String)
    /// A heading and labelled values, as for one record.
    case record(heading: String, fields: [Field])
    /// Plain lines.
    case lines([String])
    case group([DisplayLayout])

    public struct Column: Equatable, Sendable {
        public let title: String
        public let alignRight: Bool
        public init(_ title: String, alignRight: Bool = false) { self.title = title; self.alignRight = alignRight }
    }

    public struct Field: Equatable, Sendable {
        public let label: String
        public let value: String
        public init(_ label: String, _ value: String) { self.label = label; self.value = value }
    }
}

/// A user-facing message (seed 002's MessageBox): data, drawn by each front end.
public struct Message: ViewModel, Equatable {
    public enum Kind: String, Codable, Sendable { case success, error, info }

    public static let kind = "message"
    public let kind: Kind
    public let text: String
    /// For errors: what went wrong, for programs (JSON-RPC maps it to an error code).
    public let code: ErrorCode?
    /// For errors: details by key, such as the per-field errors of a failed save.
    public let details: [String: String]

    public init(_ kind: Kind, _ text: String, code: ErrorCode? = nil, details: [String: String] = [:]) {
        self.kind = kind; self.text = text; self.code = code; self.details = details
    }

    public static func success(_ text: String) -> Message { Message(.success, text) }
    public static func info(_ text: String) -> Message { Message(.info, text) }
    public static func error(_ text: String, code: ErrorCode, details: [String: String] = [:]) -> Message {
        Message(.error, text, code: code, details: details)
    }

    public var layout: DisplayLayout { .message(self) }
}

/// Kinds of failure an app reports. Generic on purpose: the core knows nothing of the app.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    /// Input was understood but is not acceptable (per-field details).
    case validationFailed = "validation_failed"
    /// The thing named does not exist.
    case notFound = "not_found"
    /// Someone else changed the data first; nothing was written.
    case conflict = "conflict"
    /// The action does not belong to the active scene.
    case sceneNotActive = "scene_not_active"
    /// The action cannot be done now (e.g. `back` at the root).
    case invalidState = "invalid_state"
    /// Storage or I/O failed.
    case storage = "storage"
    /// The command line or parameters could not be understood.
    case badInput = "bad_input"
    /// Not done without a confirmation nobody could give (see `ConfirmationRequest`).
    case confirmationRequired = "confirmation_required"
}
