import Foundation
import SceneCore

/// What makes a contact's values acceptable: the rules the form checks before a save, named
/// once so every reader of contacts (the form today, imports and sync tomorrow) applies the same.
///
/// Each check returns what is wrong, in words for the user, or nil.
public enum ContactRules {
    /// Longest one-line value (a name, a title, an address part).
    public static let maxLineLength = 200
    public static let maxNotesLength = 10_000
    public static let maxTagLength = 50
    public static let maxLabelLength = 30
    /// Digits a phone number must have.
    public static let phoneDigits = 3...20
    /// Longest email address (RFC 5321's path limit).
    public static let maxEmailLength = 254

    /// A contact needs a given name, a family name or an organisation.
    public static func nameProblem(given: String, family: String, organization: String) -> String? {
        given.isEmpty && family.isEmpty && organization.isEmpty
            ? "a contact needs a given name, a family name or an organization" : nil
    }

    /// What is wrong with a one-line value (a name, an address part), if anything.
    public static func lineProblem(_ value: String) -> String? {
        if value.count > maxLineLength { return "is longer than \(maxLineLength) characters" }
        if value.unicodeScalars.contains(where: isUnsafe) {
            return "must be one line without control characters"
        }
        return nil
    }

    public static func notesProblem(_ notes: String) -> String? {
        notes.count > maxNotesLength ? "is longer than \(maxNotesLength) characters" : nil
    }

    public static let birthdayProblem = "must be a date as YYYY-MM-DD, or --MM-DD without a year"

    public static func phoneProblem(_ number: String) -> String? {
        let allowed = CharacterSet(charactersIn: "0123456789 +-().")
        guard number.unicodeScalars.allSatisfy(allowed.contains) else {
            return "may hold only digits, spaces and + - ( ) ."
        }
        if number.dropFirst().contains("+") { return "may have + only at the start" }
        let digits = number.filter(\.isNumber).count
        return phoneDigits.contains(digits)
            ? nil : "must have \(phoneDigits.lowerBound) to \(phoneDigits.upperBound) digits"
    }

    /// A website: one word with no spaces, at most a line long. A scheme is not required
    /// ("ann.example.org" is what people type); the card keeps it as typed.
    public static func websiteProblem(_ text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if let problem = lineProblem(text) { return problem }
        return text.contains(where: { $0.isWhitespace })
            ? "is not a web address like https://example.org (it holds a space)" : nil
    }

    public static func emailProblem(_ text: String) -> String? {
        isEmail(text) ? nil : "is not an email address like name@example.org"
    }

    static func isEmail(_ text: String) -> Bool {
        // ASCII, nearly every address: the same rules read from the bytes (space, controls and
        // DEL are the only ASCII whitespace or unsafe characters, and a byte is a character).
        // An import checks every email; through Characters (splitting included) and scalar
        // properties that was a tenth of its CPU.
        if let answer = isASCIIEmail(text.utf8) { return answer }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, text.count <= maxEmailLength,
            !text.contains(where: { $0.isWhitespace || $0.isNewline }),
            !text.unicodeScalars.contains(where: isUnsafe)
        else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
    }

    /// `isEmail` of ASCII text, nil for other text, in one pass without arrays (splitting
    /// allocated two per address; an import checks every email): exactly one "@" after a
    /// non-empty local part, and a domain of two or more non-empty dot-separated parts. Nothing
    /// is decided before the last byte: in other text a combining mark can make "@" or "."
    /// part of another Character.
    private static func isASCIIEmail(_ bytes: String.UTF8View) -> Bool? {
        var ats = 0, localLength = 0, dots = 0, partLength = 0, refused = bytes.count > maxEmailLength
        for byte in bytes {
            if byte >= 0x80 { return nil }
            // Space, controls and DEL are the only ASCII whitespace or unsafe characters.
            if byte <= 0x20 || byte == 0x7F {
                refused = true
            } else if byte == UInt8(ascii: "@") {
                ats += 1
            } else if ats == 0 {
                localLength += 1
            } else if byte == UInt8(ascii: ".") {
                if partLength == 0 { refused = true }
                dots += 1
                partLength = 0
            } else {
                partLength += 1
            }
        }
        return !refused && ats == 1 && localLength > 0 && dots >= 1 && partLength > 0
    }

    public static func labelProblem(_ label: String) -> String? {
        let ok =
            !label.isEmpty && label.count <= maxLabelLength
            && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
        return ok ? nil : "must be 1 to \(maxLabelLength) letters, digits, spaces, - or _"
    }

    public static func tagProblem(_ tag: String) -> String? {
        tag.isEmpty || tag.contains(",") || tag.count > maxTagLength || tag.unicodeScalars.contains(where: isUnsafe)
            ? "must be 1 to \(maxTagLength) characters without commas or control characters" : nil
    }

    /// Control characters (C0, C1, DEL) and the bidi overrides that reorder a terminal line.
    /// Other format characters stay allowed: the zero-width (non-)joiner belongs in Persian,
    /// Hindi and emoji names.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || TerminalText.isBidiOverride(scalar)
    }
}
