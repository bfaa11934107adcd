import Foundation

/// A contact's photo, as its card's `PHOTO` holds it: inline bytes (3.0's `ENCODING=b`, 4.0's
/// `data:` URI, 2.1's `BASE64`) or a link. Kept in `extraProperties` (and the card) as it came;
/// this reads it for `show` and `photo save`, and writes the line that `photo FILE` sets.
public struct ContactPhoto: Equatable, Sendable {
    /// `image/jpeg`, `image/png`, ...; empty when the card does not say and the bytes do not tell.
    public var mediaType: String
    /// Nil for a photo the card only links to.
    public var data: Data?
    /// The link, for a photo that is not inline.
    public var uri: String?

    /// The first `PHOTO` of the contact, if any.
    public init?(of contact: Contact) {
        guard let line = contact.extraProperties.first(where: Self.isPhotoLine) else { return nil }
        self.init(line: line)
    }

    public init(mediaType: String, data: Data?, uri: String? = nil) {
        self.mediaType = mediaType; self.data = data; self.uri = uri
    }

    static func isPhotoLine(_ line: String) -> Bool {
        let head = line.prefix(6).uppercased()
        return head == "PHOTO:" || head == "PHOTO;"
            || line.range(of: #"^[A-Za-z0-9-]+\.PHOTO[;:]"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    init?(line: String) {
        guard let property = try? VCardProperty(VCardContentLine(bytes: Array(line.utf8), line: 1)) else { return nil }
        let value = property.value.trimmingCharacters(in: .whitespaces)
        let encoding = property.values(of: "ENCODING").first?.uppercased()
        if encoding == "B" || encoding == "BASE64" {
            data = Data(base64Encoded: value.filter { !$0.isWhitespace }, options: .ignoreUnknownCharacters)
            uri = nil
            let type = property.types.first { !["pref", "home", "work"].contains($0) } ?? ""
            mediaType = type.isEmpty ? "" : (type.contains("/") ? type : "image/" + type)
        } else if value.lowercased().hasPrefix("data:"), let comma = value.firstIndex(of: ",") {
            let header = value[value.index(value.startIndex, offsetBy: 5)..<comma] // image/jpeg;base64
            let payload = String(value[value.index(after: comma)...])
            mediaType = header.split(separator: ";").first.map(String.init) ?? ""
            data =
                header.lowercased().hasSuffix(";base64")
                ? Data(base64Encoded: payload, options: .ignoreUnknownCharacters)
                : payload.removingPercentEncoding.map { Data($0.utf8) }
            uri = nil
        } else {
            data = nil
            uri = value
            mediaType = property.values(of: "MEDIATYPE").first ?? ""
        }
        if data != nil, let sniffed = data.flatMap(Self.mediaType(of:)) { mediaType = sniffed }
    }

    /// What the bytes are, by their first bytes: the formats phones and mail clients write.
    public static func mediaType(of data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) { return "image/heic" }
        return nil
    }

    /// The `PHOTO` line for a card of `version` (3.0's `ENCODING=b;TYPE=`, else 4.0's `data:` URI).
    public static func line(for data: Data, mediaType: String, version: VCardVersion) -> String {
        let base64 = data.base64EncodedString()
        switch version {
        case .v21, .v3:
            let type = mediaType.split(separator: "/").last.map { $0.uppercased() } ?? "JPEG"
            return "PHOTO;ENCODING=b;TYPE=\(type):\(base64)"
        case .v4:
            return "PHOTO:data:\(mediaType);base64,\(base64)"
        }
    }

    /// "JPEG, 12 KB", or the link.
    public var summary: String {
        guard let data else { return "link: \(uri ?? "")" }
        let kind = mediaType.split(separator: "/").last.map { $0.uppercased() } ?? "image"
        let size = data.count < 1024 ? "\(data.count) bytes" : "\((data.count + 512) / 1024) KB"
        return (kind.isEmpty ? "image" : kind) + ", " + size
    }
}
