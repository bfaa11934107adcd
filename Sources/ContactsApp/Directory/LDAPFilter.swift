/// The server-side filter a search of the book's text becomes (issue 31): every word must match,
/// each as the beginning of one of the people attributes, inside the directory's own filter of
/// what a person is. Values are escaped as RFC 4515 says, so a word is never filter syntax.
public enum LDAPFilter {
    /// The attributes a word is looked for in, at their start.
    public static let searchedAttributes = [
        "cn", "displayName", "givenName", "sn", "mail", "telephoneNumber",
        "mobile", "o", "ou", "title",
    ]
    /// Words past these are left out of the filter: a directory answers a long filter slowly,
    /// and the first words narrow enough.
    public static let maximumWords = 8

    /// `(&PEOPLE(|(cn=ann*)(displayName=ann*)...)(|(cn=lee*)...))`; nil when the text has no word.
    public static func search(_ text: String, people: String = DirectorySource.defaultFilter) -> String? {
        let words = text.split(whereSeparator: { $0.isWhitespace }).prefix(maximumWords)
        guard !words.isEmpty else { return nil }
        let clauses = words.map { word -> String in
            let value = escape(String(word))
            return "(|" + searchedAttributes.map { "(\($0)=\(value)*)" }.joined() + ")"
        }
        return "(&" + people + clauses.joined() + ")"
    }

    /// RFC 4515's escapes for an assertion value: `*`, `(`, `)`, `\` and NUL as `\XX`. Other
    /// bytes, UTF-8 included, go as they are (the RFC allows them in a string filter); other
    /// control characters are escaped too, so a filter never carries one raw into a log.
    public static func escape(_ value: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        let digits = Array("0123456789abcdef".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"), 0x00..<0x20, 0x7F:
                out += [UInt8(ascii: "\\"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            default:
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A filter a person gave with `--filter`: one parenthesised expression with balanced
    /// parentheses (escaped ones aside), or why not.
    public static func validate(_ filter: String) -> String? {
        guard filter.hasPrefix("("), filter.hasSuffix(")") else {
            return "a filter is written in parentheses: (objectClass=person)"
        }
        var depth = 0
        var escaped = false
        for character in filter {
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth < 0 { return "the filter's parentheses do not match" }
            default: if character.isNewline { return "a filter is one line" }
            }
        }
        return depth == 0 ? nil : "the filter's parentheses do not match"
    }
}
