import JSONBytes
import SceneRPC

/// How a position's `character` counts: the LSP 3.17 `PositionEncodingKind`s. UTF-16 is what
/// every client understands; a client that offers UTF-8 gets it (no conversion on either side).
public enum PositionEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
    case utf32 = "utf-32"

    /// How many units of this encoding one scalar takes.
    func width(_ scalar: Unicode.Scalar) -> Int {
        switch self {
        case .utf8: return scalar.utf8.count
        case .utf16: return scalar.utf16.count
        case .utf32: return 1
        }
    }
}

/// A place in a document: a line and a column counted in the connection's `PositionEncoding`.
public struct LSPPosition: Equatable, Hashable, Sendable {
    public var line: Int
    public var character: Int
    public init(line: Int, character: Int) { self.line = line; self.character = character }

    public var json: JSONValue { ["line": .integer(line), "character": .integer(character)] }

    /// A position from a request, or an invalid-params error naming `name`.
    public init(json: JSONValue?, name: String) throws {
        guard case .object(let members)? = json,
            case .integer(let line)? = members["line"], case .integer(let character)? = members["character"],
            line >= 0, character >= 0
        else {
            throw LSPParams.invalid(name, "must be a position: {line, character}, both non-negative integers")
        }
        self.init(line: line, character: character)
    }
}

/// A span between two positions, `end` excluded.
public struct LSPRange: Equatable, Hashable, Sendable {
    public var start: LSPPosition
    public var end: LSPPosition
    public init(start: LSPPosition, end: LSPPosition) { self.start = start; self.end = end }

    public var json: JSONValue { ["start": start.json, "end": end.json] }

    public init(json: JSONValue?, name: String) throws {
        guard case .object(let members)? = json else {
            throw LSPParams.invalid(name, "must be a range: {start, end}")
        }
        start = try LSPPosition(json: members["start"], name: name + ".start")
        end = try LSPPosition(json: members["end"], name: name + ".end")
    }
}

/// A text document the client opened, kept in step with its edits (full or incremental sync).
///
/// The text is kept as UTF-8 with the start of every line, so a position converts to a byte
/// offset by walking one line's scalars, whatever the encoding. Lines end at LF, CRLF or CR, as
/// LSP says.
public struct LSPDocument: Equatable, Sendable {
    public let uri: String
    public let languageID: String
    public private(set) var version: Int
    public private(set) var bytes: [UInt8]
    /// The UTF-8 offset where each line starts; never empty (an empty document has one line).
    public private(set) var lineStarts: [Int] = [0]

    public init(uri: String, languageID: String, version: Int, text: String) {
        self.uri = uri; self.languageID = languageID; self.version = version
        bytes = Array(text.utf8)
        indexLines()
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public var lineCount: Int { lineStarts.count }

    /// The bytes of line `index`, without its line break; empty past the last line.
    public func lineBytes(_ index: Int) -> ArraySlice<UInt8> {
        guard index >= 0, index < lineStarts.count else { return [] }
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] : bytes.count
        if end > start, bytes[end - 1] == 0x0A { end -= 1 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[start..<end]
    }

    /// Line `index` as text, without its line break.
    public func line(_ index: Int) -> String { String(decoding: lineBytes(index), as: UTF8.self) }

    /// Every line as text, without line breaks.
    public var lines: [String] { (0..<lineCount).map(line) }

    /// The byte offset of a position within its line (`character` past the end is the end, as
    /// LSP says; a position inside a character counts from that character's start).
    public func utf8Column(of position: LSPPosition, encoding: PositionEncoding) -> Int {
        let line = lineBytes(position.line)
        if encoding == .utf8 { return utf8Boundary(in: line, atMost: position.character) }
        var units = 0, column = 0
        for scalar in String(decoding: line, as: UTF8.self).unicodeScalars {
            let width = encoding.width(scalar)
            if units + width > position.character { break }
            units += width
            column += scalar.utf8.count
        }
        return column
    }

    /// The position of a byte offset within line `line` (clamped to the line).
    public func position(line: Int, utf8Column: Int, encoding: PositionEncoding) -> LSPPosition {
        let bytes = lineBytes(line)
        let column = utf8Boundary(in: bytes, atMost: utf8Column)
        if encoding == .utf8 { return LSPPosition(line: line, character: column) }
        let prefix = String(decoding: bytes.prefix(column), as: UTF8.self)
        return LSPPosition(line: line, character: prefix.unicodeScalars.reduce(0) { $0 + encoding.width($1) })
    }

    /// The document-wide byte offset of a position (lines past the end are the end).
    public func offset(of position: LSPPosition, encoding: PositionEncoding) -> Int {
        guard position.line < lineStarts.count else { return bytes.count }
        return lineStarts[position.line] + utf8Column(of: position, encoding: encoding)
    }

    /// Replaces the text of `range` (the whole text when nil) with `text`: one content change
    /// of `textDocument/didChange`.
    public mutating func apply(_ text: String, in range: LSPRange?, encoding: PositionEncoding) {
        if let range {
            let start = offset(of: range.start, encoding: encoding)
            let end = max(start, offset(of: range.end, encoding: encoding))
            bytes.replaceSubrange(start..<end, with: Array(text.utf8))
        } else {
            bytes = Array(text.utf8)
        }
        indexLines()
    }

    public mutating func setVersion(_ version: Int) { self.version = version }

    /// The largest offset at most `limit` within `line` that starts a character.
    private func utf8Boundary(in line: ArraySlice<UInt8>, atMost limit: Int) -> Int {
        var column = min(max(limit, 0), line.count)
        while column > 0, column < line.count, line[line.startIndex + column] & 0xC0 == 0x80 { column -= 1 }
        return column
    }

    private mutating func indexLines() {
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0D {
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                starts.append(index)
            } else if byte == 0x0A {
                starts.append(index)
            }
        }
        lineStarts = starts
    }
}
