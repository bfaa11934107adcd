import Foundation
import SceneCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The reason a server gives when it refuses a request, in its own words, for the sync's summary:
/// `415 Unsupported Media Type: This resource only supports valid vcard data. Parse error: ...`.
/// Taken from SabreDAV's `<s:message>`, a DAV `<error>`'s preconditions (RFC 4918 §16) or a plain
/// text body; sanitised (no control bytes reach a terminal) and kept to one short line.
enum DAVRefusal {
    /// Longest reason kept: a server may answer a refusal with a whole page.
    static let maximumLength = 300

    static func reason(_ response: DAVResponse) -> String {
        var words = phrase(response.status)
        if let detail = detail(response), !detail.isEmpty, detail.lowercased() != words.lowercased() {
            words += words.isEmpty ? detail : ": \(detail)"
        }
        let clean = TerminalText.sanitize(words).split(separator: " ", omittingEmptySubsequences: true).joined(
            separator: " ")
        return clean.count > maximumLength ? String(clean.prefix(maximumLength - 1)) + "…" : clean
    }

    /// What the body says, when it says something a person can read.
    private static func detail(_ response: DAVResponse) -> String? {
        // Only small bodies: an error page of megabytes says nothing more.
        guard !response.body.isEmpty, response.body.count <= 65_536,
            DAVBody.isSafeForXMLParser(response.body)
        else { return nil }
        let type = (response.header("Content-Type") ?? "").lowercased()
        let text = String(decoding: response.body, as: UTF8.self)
        if type.contains("xml") || text.hasPrefix("<?xml") {
            let reader = MessageReader()
            let parser = XMLParser(data: response.body)
            parser.shouldProcessNamespaces = true
            parser.delegate = reader
            _ = parser.parse()
            if !reader.message.isEmpty { return reader.message }
            return reader.conditions.isEmpty ? nil : reader.conditions.joined(separator: ", ")
        }
        if type.hasPrefix("text/plain") || type.isEmpty { return text }
        return nil
    }

    /// The standard words for the statuses a refusal comes with.
    static func phrase(_ status: Int) -> String {
        let phrases = [
            400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            409: "Conflict", 410: "Gone", 411: "Length Required", 413: "Payload Too Large",
            414: "URI Too Long", 415: "Unsupported Media Type", 422: "Unprocessable Content",
            423: "Locked", 424: "Failed Dependency", 429: "Too Many Requests",
            500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout", 507: "Insufficient Storage",
        ]
        return phrases[status] ?? ""
    }

    /// SabreDAV's `<s:message>` and the preconditions directly inside `<error>`.
    private final class MessageReader: NSObject, XMLParserDelegate {
        var message = ""
        var conditions: [String] = []
        private var depth = 0
        private var inError = false
        private var inMessage = false

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            depth += 1
            if depth == 1 { inError = name == "error" }
            if name == "message" {
                inMessage = true; message = ""
            } else if depth == 2, inError,
                namespaceURI != "http://sabredav.org/ns"
            {
                conditions.append(name)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inMessage { message += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            if name == "message" { inMessage = false }
        }
    }
}
