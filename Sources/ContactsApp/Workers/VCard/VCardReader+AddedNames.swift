import Foundation

extension VCardReader {
    /// The FN and N an export adds to a card that came without them (`VCardWriter.requiredLines`:
    /// FN in 3.0 and 4.0, N in 3.0 and beside an added FN), named in the import's report with
    /// the line each will be: the export changes the card, and the report says so first.
    static func namesAnExportAdds(
        _ properties: [VCardProperty], contact: Contact, version: VCardVersion?, cardLine: Int
    ) -> [ParsedContacts.Problem] {
        var hasFN = false, hasN = false
        let is4 = version == .v4
        for property in properties {
            switch property.name {
            case "FN": hasFN = true
            case "N": hasN = true
            default: continue
            }
        }
        var added: [ParsedContacts.Problem] = []
        if !hasFN {
            let line = "FN:" + VCardText.escape(contact.fullName)
            added.append(
                .init(
                    line: cardLine,
                    reason: "no FN (display name): an export writes \(line) (vCard 3.0 and 4.0 require FN)",
                    kind: .changed))
        }
        if !hasN && (!is4 || !hasFN) {
            let line = "N:" + VCardText.escape(contact.familyName) + ";" + VCardText.escape(contact.givenName) + ";;;"
            let when =
                hasFN
                ? "an export as vCard 3.0 writes \(line) (3.0 requires N)"
                : "an export writes \(line) beside the FN (3.0 requires N; in 4.0 it keeps the name's parts)"
            added.append(.init(line: cardLine, reason: "no N (name parts): " + when, kind: .changed))
        }
        return added
    }

    /// The properties an export in the card's own version (3.0 for a 2.1 card) writes otherwise,
    /// because that version has no place for them (`VCardVersionConverter`): named in the import's
    /// report by their lines, so what changes is known before the card is ever written.
    /// `version`: the card's own (`VCardRecord.declaredVersion`).
    static func propertiesAnExportRewrites(_ properties: [VCardProperty], lines: [Int], version: VCardVersion?)
        -> [ParsedContacts.Problem]
    {
        var found: [ParsedContacts.Problem] = []
        // By index, each property passed on in place: a copy of each retained and released all its parts.
        for index in properties.indices where index < lines.count {
            rewrites(of: properties[index], line: lines[index], version: version, into: &found)
        }
        return found
    }

    /// What `propertiesAnExportRewrites` finds of one property.
    private static func rewrites(
        of property: VCardProperty, line: Int, version: VCardVersion?, into found: inout [ParsedContacts.Problem]
    ) {
        let name = property.name
        // Every export removes them (`VCardVersionConverter.ControlCharacters`), whatever its version.
        let controls = property.controlCharactersKept
        if !controls.isEmpty {
            let listed = controls.map { String(format: "U+%04X", $0.value) }.joined(separator: ", ")
            let noun = controls.count == 1 ? "control character" : "control characters"
            found.append(
                .init(
                    line: line,
                    reason:
                        "\(name): \(noun) \(listed) removed: an export leaves \(controls.count == 1 ? "it" : "them") out "
                        + "(a vCard may not hold \(controls.count == 1 ? "one" : "them"))", kind: .changed))
        }
        if name == "TEL", !property.parameters.isEmpty, property.firstValue(of: "VALUE")?.lowercased() == "uri",
            !VCardVersionConverter.Binary.looksLikeURI(property.value)
        {
            found.append(
                .init(
                    line: line,
                    reason: "TEL: VALUE=uri, but \"\(property.value)\" is no URI: an export writes it as text",
                    kind: .changed))
        }
        switch version {
        case .v21?, .v3?:
            if VCardVersionConverter.Names.onlyIn4.contains(name) {
                found.append(
                    .init(
                        line: line,
                        reason: "\(name): vCard 3.0 has no \(name): an export as 3.0 writes it as X-\(name)",
                        kind: .changed))
            } else if version == .v21 && name == "AGENT" && !property.value.uppercased().hasPrefix("BEGIN:VCARD")
                && !VCardVersionConverter.Binary.looksLikeURI(property.value)
            {
                found.append(
                    .init(
                        line: line,
                        reason: "AGENT: neither a card nor a link, which vCard 3.0's AGENT must be: "
                            + "an export as 3.0 writes it as X-AGENT", kind: .changed))
            } else if version == .v21 && name == "KEY" && Self.isKeyLink(property) {
                // What `VCardVersionConverter.Binary.to3` does with it (RFC 2426 §3.7.2).
                found.append(
                    .init(
                        line: line,
                        reason: "KEY: a link to a key, which vCard 3.0's KEY cannot be (only the key itself, "
                            + "as binary or text): an export as 3.0 writes the link as text", kind: .changed))
            }
        case .v4?:
            // A look through four names: hashing every property's name cost more.
            if VCardVersionConverter.Names.removedIn4List.contains(name) {
                found.append(
                    .init(
                        line: line, reason: "\(name): vCard 4.0 has no \(name): an export as 4.0 leaves it out",
                        kind: .changed))
            }
        case nil:
            return
        }
    }

    /// A 2.1 KEY that is a link (`KEY;VALUE=URL:https://...`, or a bare URI), not inline data or text.
    private static func isKeyLink(_ key: VCardProperty) -> Bool {
        let encoding = key.values(of: "ENCODING").first?.lowercased()
        guard encoding != "b" && encoding != "base64", !key.value.lowercased().hasPrefix("data:") else { return false }
        let valueType = key.values(of: "VALUE").first?.lowercased()
        if valueType == "text" { return false }
        return valueType == "uri" || valueType == "url" || VCardVersionConverter.Binary.looksLikeURI(key.value)
    }
}
