/// `help`: the actions available where the user is.
public struct HelpViewModel: ViewModel, Equatable {
    public static let kind = "help"
    public struct Entry: Encodable, Equatable, Sendable {
        public let usage: String
        public let summary: String
    }
    public let scene: String
    public let entries: [Entry]
    /// For `help ACTION`: its parameters and details.
    public let details: [String]

    public var layout: DisplayLayout {
        let width = entries.map(\.usage.count).max() ?? 0
        let lines = entries.map { entry in
            entry.usage + String(repeating: " ", count: width - entry.usage.count + 2) + entry.summary
        }
        return .lines(lines + details)
    }
}

/// `stack`: the scenes from the root to the active one.
public struct StackViewModel: ViewModel, Equatable {
    public static let kind = "stack"
    public struct Entry: Encodable, Equatable, Sendable {
        public let scene: String
        public let title: String
    }
    public let scenes: [Entry]

    public var layout: DisplayLayout {
        .lines(
            scenes.enumerated().map { index, entry in
                String(repeating: "  ", count: index) + "\(entry.scene): \(entry.title)"
            })
    }
}
