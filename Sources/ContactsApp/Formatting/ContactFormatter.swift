import Foundation
import SceneCore

/// The formatting every contacts Presenter shares: names as typed, phone masks, dates.
/// One place, so the list, the detail and the form show a contact the same way.
public struct ContactFormatter {
    /// The machine's time zone is looked up only when a time is shown (`ContactsEnvironment.timeZone`).
    var timeZone: TimeZone { givenTimeZone ?? .current }
    private let givenTimeZone: TimeZone?
    /// The book's country for numbers without a country code (ISO 3166 code, e.g. "US"), or
    /// nil: such numbers are then shown as typed, since nothing says which country they are in.
    let defaultCountry: String?

    /// A nil `timeZone` is the machine's.
    public init(timeZone: TimeZone?, defaultCountry: String? = nil) {
        givenTimeZone = timeZone
        self.defaultCountry = defaultCountry?.uppercased()
    }

    /// The countries of the North American Numbering Plan, whose numbers get its mask.
    static let northAmericanCountries: Set<String> = [
        "US", "CA", "AG", "AI", "AS", "BB", "BM", "BS", "DM", "DO", "GD", "GU", "JM", "KN", "KY", "LC", "MP",
        "MS", "PR", "SX", "TC", "TT", "VC", "VG", "VI",
    ]

    /// The contact's name as typed or imported, in its name order ("danah boyd", "山田 太郎");
    /// the organisation when it has no name. Names are never re-capitalised for display:
    /// `PersonName.tidied` does that, when the person asks.
    public func displayName(_ contact: Contact) -> String { contact.fullName }

    /// North American numbers get the familiar mask ("+1 (555) 123-4567") when they say they are
    /// North American: by their +1, or, without a country code, by the book's default country.
    /// Others are shown as entered with runs of spaces collapsed: "4930123456" may be Berlin.
    public func phone(_ number: String) -> String {
        // An ASCII number (nearly all) by its bytes, the same answers: `trimmingCharacters` went
        // through NSString and `isNumber` through Unicode's tables, 6 % of a piped `search`.
        guard number.utf8.allSatisfy({ $0 < 0x80 }) else { return phoneByCharacters(number) }
        var digitBytes: [UInt8] = [], onlyPhoneCharacters = true
        for byte in number.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digitBytes.append(byte)
            case UInt8(ascii: " "), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "."):
                break
            default: onlyPhoneCharacters = false
            }
        }
        // `.whitespaces` in ASCII: space and tab.
        let plus = number.utf8.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } == UInt8(ascii: "+")
        let digits = String(decoding: digitBytes, as: UTF8.self)
        return phone(number, digits: digits, plus: plus, onlyPhoneCharacters: onlyPhoneCharacters)
    }

    /// `phone(_:)` character by character, for any text.
    func phoneByCharacters(_ number: String) -> String {
        let digits = number.filter { $0.isASCII && $0.isNumber }
        let plus = number.trimmingCharacters(in: .whitespaces).hasPrefix("+")
        let onlyPhoneCharacters = number.allSatisfy { $0.isASCII && ($0.isNumber || " +-().".contains($0)) }
        return phone(number, digits: digits, plus: plus, onlyPhoneCharacters: onlyPhoneCharacters)
    }

    private func phone(_ number: String, digits: String, plus: Bool, onlyPhoneCharacters: Bool) -> String {
        if onlyPhoneCharacters {
            if plus && digits.count == 11 && digits.hasPrefix("1") && isAreaCode(digits.dropFirst()) {
                return "+1 " + nanp(String(digits.dropFirst()))
            }
            if !plus && digits.count == 10 && isAreaCode(Substring(digits)),
                let country = defaultCountry, Self.northAmericanCountries.contains(country)
            {
                return nanp(digits)
            }
        }
        // Spaces collapsed; a number with no space at either end and none doubled (nearly all)
        // is that already, and is returned without splitting it (bench/FINDINGS.md, `pipe9`).
        return Self.hasSpacesToCollapse(number)
            ? number.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") : number
    }

    /// Whether `text` starts or ends with a space or holds two in a row: the only texts that
    /// splitting at spaces and joining with one changes.
    private static func hasSpacesToCollapse(_ text: String) -> Bool {
        let space = UInt8(ascii: " ")
        var previous: UInt8? = nil
        for byte in text.utf8 {
            if byte == space && (previous == nil || previous == space) { return true }
            previous = byte
        }
        return previous == space
    }

    /// North American area codes start with 2 to 9, so "03-1234-5678" (Tokyo) is not one.
    private func isAreaCode(_ ten: Substring) -> Bool {
        ten.first.map { ("2"..."9").contains($0) } ?? false
    }

    /// Ten ASCII digits (all `phone` keeps), cut by index: through `[Character]` slices the
    /// unspecialized `String.init` cost a piped `search` 0.38M instructions (bench/FINDINGS.md, `start6`).
    private func nanp(_ ten: String) -> String {
        let a = ten.index(ten.startIndex, offsetBy: 3)
        let b = ten.index(a, offsetBy: 3)
        let c = ten.index(b, offsetBy: 4)
        return "(" + String(ten[..<a]) + ") " + String(ten[a..<b]) + "-" + String(ten[b..<c])
    }

    public func address(_ address: PostalAddress) -> String {
        address.components.joined(separator: ", ")
    }

    /// Readable in every locale: ISO with a year ("1990-05-17"); without one, the day and the
    /// month's name ("3 Feb"), since "02-03" reads as February or March depending on where one lives.
    public func birthday(_ birthday: Birthday) -> String {
        guard birthday.year == nil else { return birthday.isoString }
        return "\(birthday.day) \(Self.monthNames[(birthday.month - 1) % 12])"
    }

    /// English like every other word the app shows, never the machine's locale.
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "2026-11-21 22:44" in the injected time zone.
    public func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }

    /// The message a failure shows, with its error code and per-field details.
    public func message(for failure: ContactsFailure) -> Message {
        switch failure {
        case .notFound(let reference):
            return .error("no contact matches '\(reference)'", code: .notFound)
        case .ambiguous(let reference, let matches):
            let list = matches.map { "#\($0.id ?? 0) \(displayName($0))" }.joined(separator: ", ")
            return .error(
                "'\(reference)' matches \(matches.count) contacts: \(list); name one by its number",
                code: .badInput)
        case .stale(let current, let yours):
            return .error(
                "#\(current.id ?? 0) \(displayName(current)) was changed elsewhere since you opened it (your version \(yours), "
                    + "now \(current.version)); nothing was changed. Look at it again before retrying.",
                code: .conflict)
        case .invalid(let errors):
            var details: [String: String] = [:]
            for error in errors { details[error.field] = error.message }
            let count = errors.count == 1 ? "1 field is" : "\(errors.count) fields are"
            return .error("not saved: \(count) not valid", code: .validationFailed, details: details)
        case .badInput(let text):
            return .error(text, code: .badInput)
        case .storage(let reason):
            return .error("storage failed: \(reason)", code: .storage)
        case .cancelled(let text):
            return .error(text, code: .invalidState)
        case .journal(let refusal, let action):
            return message(for: refusal, action: action)
        case .readOnly(let book, let byServer, let contact):
            let why =
                byServer
                ? "the server does not let us write it"
                : "marked read-only: 'contactsbook book readonly \(book) off' lifts it"
            let what = contact.map { "\($0) is in book \(book)" } ?? "new contacts go to book \(book)"
            return .error("\(what), which is read-only (\(why)); nothing was changed", code: .invalidState)
        case .readOnlyForGroups(let book, let byServer, let named, let writable):
            let why = byServer ? "the server does not let us write it" : "marked read-only"
            let what = named ? "book \(book)" : "new groups go to book \(book), which"
            let instead = writable.map { "; name a writable book: group new NAME --book \($0)" } ?? ""
            return .error(
                "\(what) is read-only (\(why)): a group there would never reach the server\(instead). "
                    + "Nothing was made.", code: .invalidState, details: ["book": book])
        }
    }

    /// Why the journal did nothing, naming the change it would have overwritten.
    func message(for refusal: JournalRefusal, action: String) -> Message {
        switch refusal {
        case .nothingToUndo: return .error("Nothing to undo.", code: .invalidState)
        case .nothingToRedo: return .error("Nothing to redo.", code: .invalidState)
        case .changedLater(let change, let later):
            return .error(
                "Cannot \(action) \"\(change.summary)\": change #\(later.id) (\(later.summary), from \(later.origin), "
                    + "\(timestamp(later.at))) touched the same contact later. Nothing was changed.",
                code: .conflict, details: ["change": String(change.id), "later": String(later.id)])
        case .changedSince(let change, let contactID):
            return .error(
                "Cannot \(action) \"\(change.summary)\": #\(contactID) was changed since, outside the history. "
                    + "Nothing was changed.", code: .conflict, details: ["change": String(change.id)])
        case .noSuchChange(let id):
            return .error("There is no change #\(id) to \(action); see 'history'.", code: .notFound)
        case .notInTrash(let reference):
            return .error("No contact in the trash is \(reference); see 'trash'.", code: .notFound)
        case .bookUnavailable(let change, let book, let readOnly):
            return .error(
                "Cannot \(action) \"\(change.summary)\": book \(book) "
                    + (readOnly ? "is read-only now" : "is no longer in this file") + ". Nothing was changed.",
                code: readOnly ? .invalidState : .conflict, details: ["change": String(change.id), "book": book])
        }
    }
}
