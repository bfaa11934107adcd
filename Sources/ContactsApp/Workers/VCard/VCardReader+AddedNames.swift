import Foundation

extension VCardReader {
    /// The FN and N an export adds to a card that came without them (`VCardWriter.requiredLines`:
    /// FN in 3.0 and 4.0, N in 3.0 and beside an added FN), named in the import's report with
    /// the line each will be: the export changes the card, and the report says so first.
    static func namesAnExportAdds(_ properties: [VCardProperty], contact: Contact, cardLine: Int) -> [ParsedContacts.Problem] {
        var hasFN = false, hasN = false, is4 = false
        for property in properties {
            switch property.name {
            case "FN": hasFN = true
            case "N": hasN = true
            case "VERSION": is4 = VCardVersion(versionValue: property.value) == .v4
            default: continue
            }
        }
        var added: [ParsedContacts.Problem] = []
        if !hasFN {
            let line = "FN:" + VCardText.escape(contact.fullName)
            added.append(.init(line: cardLine, reason: "no FN (display name): an export writes \(line) (vCard 3.0 and 4.0 require FN)",
                               kind: .changed))
        }
        if !hasN && (!is4 || !hasFN) {
            let line = "N:" + VCardText.escape(contact.familyName) + ";" + VCardText.escape(contact.givenName) + ";;;"
            let when = hasFN ? "an export as vCard 3.0 writes \(line) (3.0 requires N)"
                : "an export writes \(line) beside the FN (3.0 requires N; in 4.0 it keeps the name's parts)"
            added.append(.init(line: cardLine, reason: "no N (name parts): " + when, kind: .changed))
        }
        return added
    }
}
