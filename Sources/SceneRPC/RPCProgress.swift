import JSONBytes
import SceneCore

/// The progress token a request carried, and how to spell its notifications.
///
/// LSP clients put `workDoneToken` in the params and get `$/progress` with
/// `{token, value: {kind: begin|report|end, ...}}`. MCP clients put `_meta.progressToken` in the
/// params and get `notifications/progress` with `{progressToken, progress, total?, message?}`,
/// whose `progress` only ever increases. Both members are taken out of the params before they
/// are checked against the action's declaration.
struct ProgressToken: Equatable {
    enum Style: Equatable { case lsp, mcp }

    let value: JSONValue
    let style: Style
    /// The last `progress` sent to an MCP client (it must increase).
    var lastProgress: Int?
    /// The last `completed` reported, and what earlier phases counted: work that counts again
    /// from 0 (a sync's uploads after its downloads) goes on from there for an MCP client, whose
    /// `progress` would otherwise stall until the new count passed the old one.
    var lastCompleted: Int?
    var phaseOffset = 0

    /// Takes the token (if any) out of `params`; returns the params to bind and the token.
    static func extract(from params: JSONValue?) -> (params: JSONValue?, token: ProgressToken?) {
        guard case .object(var members)? = params else { return (params, nil) }
        var token: ProgressToken?
        if let meta = members.removeValue(forKey: "_meta"), let value = meta["progressToken"], isToken(value) {
            token = ProgressToken(value: value, style: .mcp)
        }
        if let value = members.removeValue(forKey: "workDoneToken"), isToken(value) {
            token = ProgressToken(value: value, style: .lsp)
        }
        return (.object(members), token)
    }

    private static func isToken(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .integer: return true
        default: return false
        }
    }

    /// The notification for one event, or nil when this style has nothing to say.
    mutating func notification(for event: ProgressEvent) -> (method: String, params: JSONValue)? {
        switch style {
        case .lsp: return ("$/progress", ["token": value, "value": Self.workDoneValue(event)])
        case .mcp:
            var members: [String: JSONValue] = ["progressToken": value]
            let progress: Int
            switch event {
            case .begin(let title, let total):
                progress = 0
                members["message"] = .string(title)
                if let total { members["total"] = .integer(total) }
            case .report(let completed, let total, let message):
                if let lastCompleted, completed < lastCompleted { phaseOffset = lastProgress ?? 0 }
                lastCompleted = completed
                progress = phaseOffset + completed
                if let total { members["total"] = .integer(phaseOffset + total) }
                if let message { members["message"] = .string(message) }
            case .end:
                return nil // the response ends the work for an MCP client
            }
            if let lastProgress, progress <= lastProgress { return nil }
            lastProgress = progress
            members["progress"] = .integer(progress)
            return ("notifications/progress", .object(members))
        }
    }

    /// LSP's WorkDoneProgressBegin, Report and End.
    private static func workDoneValue(_ event: ProgressEvent) -> JSONValue {
        switch event {
        case .begin(let title, let total):
            var members: [String: JSONValue] = ["kind": "begin", "title": .string(title), "cancellable": false]
            if total != nil { members["percentage"] = 0 }
            return .object(members)
        case .report(let completed, let total, let message):
            var members: [String: JSONValue] = ["kind": "report"]
            if let total, total > 0 { members["percentage"] = .integer(min(100, max(0, completed * 100 / total))) }
            if let message { members["message"] = .string(message) }
            return .object(members)
        case .end(let message):
            var members: [String: JSONValue] = ["kind": "end"]
            if let message { members["message"] = .string(message) }
            return .object(members)
        }
    }
}
