import ContactsApp
import Foundation

/// How an address is written in a header: `Name <email>`, the name quoted where RFC 5322 needs
/// it (a `.`, `,`, `@`, quote or other special; non-ASCII letters need none under RFC 6532).
public enum MailAddressText {
    static let atomSpecials = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)

    public static func address(name: String, email: String) -> String {
        let name =
            isTidy(name) ? name : name.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        guard !name.isEmpty else { return email }
        return phrase(name) + " <" + email + ">"
    }

    /// A name that is already one line with single spaces between words, read from its bytes:
    /// splitting Characters for every completion item was a twentieth of a completion.
    static func isTidy(_ name: String) -> Bool {
        var previousSpace = true
        for scalar in name.unicodeScalars {
            let value = scalar.value
            if value == 0x20 {
                if previousSpace { return false }
                previousSpace = true
                continue
            }
            // Controls, and Unicode's other white space (U+0085, U+00A0, U+2000-U+200A, U+3000...).
            if value < 0x20 || (0x7F...0xA0).contains(value) || value == 0x1680 || (0x2000...0x200A).contains(value)
                || (0x2028...0x2029).contains(value) || value == 0x202F || value == 0x205F || value == 0x3000
            {
                return false
            }
            previousSpace = false
        }
        return !previousSpace || name.isEmpty
    }

    /// The name as an RFC 5322 phrase: as it is when every word is an atom, else quoted.
    static func phrase(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy { scalar in
            scalar == " " || scalar.value >= 0x80 || atomSpecials.contains(scalar)
                || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        if plain { return name }
        var quoted = "\""
        for scalar in name.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\""
    }
}

/// Formats contacts for an editor: the Markdown of a hover and of a completion's documentation.
/// Text from contacts is escaped, so a name cannot make links or markup.
public struct ContactMarkdown {
    let formatter: ContactFormatter

    public init(environment: ContactsEnvironment) {
        formatter = ContactFormatter(
            timeZone: environment.givenTimeZone,
            defaultCountry: environment.defaultCountry)
    }

    /// Name, organisation and title, emails, phones, birthday.
    public func card(_ contact: Contact) -> String {
        var lines = ["**\(Self.escaped(formatter.displayName(contact)))**"]
        let work = [contact.organization, contact.title].filter { !$0.isEmpty }.map(Self.escaped)
        if !work.isEmpty { lines.append(work.joined(separator: " · ")) }
        var items: [String] = []
        for email in contact.emails { items.append("- " + Self.code(email.value) + Self.label(email.label)) }
        for phone in contact.phones {
            items.append("- " + Self.escaped(formatter.phone(phone.value)) + Self.label(phone.label))
        }
        if let birthday = contact.birthday { items.append("- Birthday: " + Self.escaped(formatter.birthday(birthday))) }
        if !items.isEmpty { lines.append(""); lines += items }
        return lines.joined(separator: "\n")
    }

    /// A completion's documentation: the organisation, then the contact's other addresses.
    public func completionDocumentation(_ contact: Contact?, completing email: String) -> String? {
        guard let contact else { return nil }
        var lines: [String] = []
        let work = [contact.organization, contact.title].filter { !$0.isEmpty }.map(Self.escaped)
        if !work.isEmpty { lines.append(work.joined(separator: " · ")) }
        let others = contact.emails.filter { $0.value != email }
        if !others.isEmpty {
            if !lines.isEmpty { lines.append("") }
            lines.append("Other addresses:")
            lines += others.map { "- " + Self.code($0.value) + Self.label($0.label) }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    public func unknown(_ email: String) -> String {
        Self.code(email) + " is not in your contacts"
    }

    public func invalid(_ text: String, problem: String) -> String {
        Self.code(text) + " is not a valid address: it " + Self.escaped(problem)
    }

    private static func label(_ label: String) -> String { label.isEmpty ? "" : " (" + escaped(label) + ")" }

    /// Inline code: no markup inside; a backtick in the text gets a longer fence.
    static func code(_ text: String) -> String {
        let clean =
            text.unicodeScalars.contains(where: isControl)
            ? String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 })) : text
        let fence = clean.contains("`") ? "``" : "`"
        return fence + (clean.hasPrefix("`") || clean.hasSuffix("`") ? " \(clean) " : clean) + fence
    }

    /// Markdown's punctuation backslash-escaped, control characters made spaces.
    static func escaped(_ text: String) -> String {
        // Most names and organisations hold none of these: returned as they are.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || markup.contains($0) }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) { out.append(" "); continue }
            if scalar.isASCII, markup.contains(UInt8(scalar.value)) { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }

    static let markup = Set("\\`*_[]<>#|~".utf8)

    /// C0 and C1 controls and DEL (Unicode's Cc), without a property look-up.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
