import Foundation

/// Finds an XML entity reference that `XMLParser` (libxml2 under FoundationXML) would leave out
/// of the text it hands over: `&a;` declared in a DTD, external, or undeclared. The parser drops
/// it silently (a `NOTE:n=&a;` read as `n=`, a card's whole text gone), so a multistatus holding
/// one is refused, naming the card (issue 26, item 12). The five predefined entities and
/// character references are XML's own and are read as they should be.
enum DAVEntityCheck {
    struct Found: Equatable {
        /// The entity's name, without `&` and `;`.
        var name: String
        /// The href of the response it is in (the last `href` before it), if any.
        var href: String?
    }

    static let predefined: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    /// The first entity reference outside CDATA sections and comments that is not predefined.
    static func firstUnexpandable(in data: Data) -> Found? {
        data.withUnsafeBytes { raw -> Found? in
            let bytes = raw.bindMemory(to: UInt8.self)
            // Most answers hold no `&` but predefined ones: found without a careful walk.
            guard hasSuspect(bytes) else { return nil }
            return walk(bytes)
        }
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
             UInt8(ascii: ":"), 0x80...0xFF: return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): return !first
        default: return false
        }
    }

    /// The name of the entity reference at `index` (which holds `&`), or nil for a character
    /// reference, a predefined entity, or no reference at all.
    private static func entity(at index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var end = index + 1
        while end < bytes.count, isNameByte(bytes[end], first: end == index + 1) { end += 1 }
        guard end > index + 1, end < bytes.count, bytes[end] == UInt8(ascii: ";") else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self)
        return predefined.contains(name) ? nil : name
    }

    private static func hasSuspect(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), entity(at: index, bytes) != nil { return true }
            index += 1
        }
        return false
    }

    private static func starts(_ prefix: String, at index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let utf8 = Array(prefix.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        for offset in 0..<utf8.count where bytes[index + offset] != utf8[offset] { return false }
        return true
    }

    private static func find(_ text: String, from index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var at = index
        while at < bytes.count {
            if starts(text, at: at, bytes) { return at }
            at += 1
        }
        return nil
    }

    /// Walks the document: skips CDATA sections and comments, remembers the last `href`'s text.
    private static func walk(_ bytes: UnsafeBufferPointer<UInt8>) -> Found? {
        var index = 0
        var href: String?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if starts("<![CDATA[", at: index, bytes) {
                    index = (find("]]>", from: index + 9, bytes) ?? bytes.count) + 3
                    continue
                }
                if starts("<!--", at: index, bytes) {
                    index = (find("-->", from: index + 4, bytes) ?? bytes.count) + 3
                    continue
                }
                // `<href>` or `<D:href>`: its text up to the next `<`.
                var nameEnd = index + 1
                while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: ">"), bytes[nameEnd] != UInt8(ascii: " ") {
                    nameEnd += 1
                }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<nameEnd]), as: UTF8.self)
                if nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: ">"), !name.hasPrefix("/"),
                   name == "href" || name.hasSuffix(":href") {
                    let textStart = nameEnd + 1
                    var textEnd = textStart
                    while textEnd < bytes.count, bytes[textEnd] != UInt8(ascii: "<") { textEnd += 1 }
                    href = String(decoding: UnsafeBufferPointer(rebasing: bytes[textStart..<textEnd]), as: UTF8.self)
                    index = textEnd
                    continue
                }
            } else if byte == UInt8(ascii: "&"), let name = entity(at: index, bytes) {
                return Found(name: name, href: href)
            }
            index += 1
        }
        return nil
    }
}
