import Foundation

extension Contact {
    /// Whether a reference typed by a person or a program names this contact exactly: its
    /// number (`3` or `#3`), its UID, or its whole name (case and accents ignored). Anything
    /// else that found it (part of a name) is a guess, and a guess never deletes unasked.
    public func isNamedExactly(by reference: String) -> Bool {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        if let number = Int64(digits) { return number == id }
        if !uid.isEmpty && trimmed == uid { return true }
        return ContactKeys.fold(trimmed) == ContactKeys.fold(fullName)
    }
}
