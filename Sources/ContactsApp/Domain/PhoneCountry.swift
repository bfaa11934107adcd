/// What normalising a phone needs to know of a country: its calling code, and whether numbers
/// dialled at home start with a trunk prefix `0` that the international form drops
/// (`020 7946 0000` in the UK is `+44 20 7946 0000`; Italy keeps its `0`).
///
/// A short table of the countries our users write from, not a numbering plan: the form only
/// has to agree between two ways of writing one number in one book.
public struct PhoneCountry: Equatable, Sendable {
    public let code: String
    public let callingCode: String
    public let dropsTrunkZero: Bool
    /// The prefix dialled for abroad besides `+` (`00`, `011` in North America).
    public let internationalPrefix: String

    /// The country for an ISO 3166 code (`US`, `de`), or nil if the table lacks it.
    public init?(_ isoCode: String) {
        guard let entry = Self.table[isoCode.uppercased()] else { return nil }
        self = entry
    }

    private init(_ code: String, _ callingCode: String, trunkZero: Bool, international: String = "00") {
        self.code = code; self.callingCode = callingCode; dropsTrunkZero = trunkZero;
        internationalPrefix = international
    }

    private static let table: [String: PhoneCountry] = Dictionary(
        uniqueKeysWithValues: [
            PhoneCountry("US", "1", trunkZero: false, international: "011"),
            PhoneCountry("CA", "1", trunkZero: false, international: "011"),
            PhoneCountry("GB", "44", trunkZero: true), PhoneCountry("IE", "353", trunkZero: true),
            PhoneCountry("DE", "49", trunkZero: true), PhoneCountry("AT", "43", trunkZero: true),
            PhoneCountry("CH", "41", trunkZero: true), PhoneCountry("FR", "33", trunkZero: true),
            PhoneCountry("BE", "32", trunkZero: true), PhoneCountry("NL", "31", trunkZero: true),
            PhoneCountry("SE", "46", trunkZero: true), PhoneCountry("FI", "358", trunkZero: true),
            PhoneCountry("IT", "39", trunkZero: false), PhoneCountry("ES", "34", trunkZero: false),
            PhoneCountry("PT", "351", trunkZero: false), PhoneCountry("PL", "48", trunkZero: false),
            PhoneCountry("DK", "45", trunkZero: false), PhoneCountry("NO", "47", trunkZero: false),
            PhoneCountry("AU", "61", trunkZero: true, international: "0011"), PhoneCountry("NZ", "64", trunkZero: true),
            PhoneCountry("JP", "81", trunkZero: true, international: "010"), PhoneCountry("IN", "91", trunkZero: true),
            PhoneCountry("BR", "55", trunkZero: true), PhoneCountry("MX", "52", trunkZero: false),
        ].map { ($0.code, $0) })

    /// `phoneDigits`' form (`+` and digits, or digits) as `+` country code and national number.
    /// A number with `+` is already international; one starting with the international prefix
    /// drops it; a national number gets the country's code (less its trunk `0`). North
    /// American numbers written `1 555 000 1111` carry their code already. Without a known
    /// country, a national number stays as it is (it cannot be compared with `+` forms).
    static func international(_ digits: String, defaultCountry: String?) -> String {
        if digits.hasPrefix("+") { return digits }
        guard let country = defaultCountry.flatMap(PhoneCountry.init) else { return digits }
        if digits.hasPrefix(country.internationalPrefix) {
            return "+" + digits.dropFirst(country.internationalPrefix.count)
        }
        if country.callingCode == "1", digits.count == 11, digits.hasPrefix("1") { return "+" + digits }
        if country.dropsTrunkZero, digits.hasPrefix("0") { return "+" + country.callingCode + digits.dropFirst() }
        return "+" + country.callingCode + digits
    }
}
