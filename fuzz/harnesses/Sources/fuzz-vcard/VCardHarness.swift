@testable import ContactsApp
import Foundation
import FuzzSupport

/// One input is a .vcf file as another program could export it.
///
/// Checks, beyond no crash, leak or hang:
/// - reading the file a chunk at a time (the first byte picks the chunk size) gives what reading
///   it whole gives, as `read(batchSize:nextChunk:_:)` promises;
/// - every contact read, written by the vCard 4.0 and 3.0 writers, reads back as the same contact
///   (its unmodelled properties in the writer's order), and a second trip changes nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVCard(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = input(start, count)
    let reader = VCardReader(maximumLineBytes: 4096)
    let whole = reader.read(Data(bytes))

    let chunkSize = Int(bytes.first ?? 0) % 61 + 1
    var streamed = ParsedContacts()
    var offset = 0
    try? reader.read(batchSize: 2, nextChunk: { chunk in
        guard offset < bytes.count else { return false }
        chunk = Array(bytes[offset..<min(offset + chunkSize, bytes.count)])
        offset += chunkSize
        return true
    }) { batch in
        streamed.entries += batch.entries
        streamed.problems += batch.problems
        streamed.warnings += batch.warnings
        streamed.skippedLines += batch.skippedLines
    }
    guard streamed == whole else { fatalError("chunks of \(chunkSize) bytes read \(streamed), the whole file \(whole)") }

    let contacts = whole.entries.map(\.contact)
    for version in [VCardWriter.Version.v4, .v3] {
        let writer = VCardWriter(version: version)
        let once = writtenAndRead(contacts, writer)
        // Properties the model keeps verbatim come back in the writer's order (the name's
        // prefix and suffix first, inside N): the same set, not always the same order. The
        // writer writes one prefix and one suffix, in N: several (two N lines, or our own
        // X-CONTACTSBOOK-NAME-* lines beside N), or an empty one, come back as that one.
        guard once.map(unordered) == contacts.map(unordered) else {
            fatalError("vCard \(version) read back \(difference(contacts.map(unordered), once.map(unordered)))")
        }
        let twice = writtenAndRead(once, writer)
        guard twice == once else { fatalError("vCard \(version) read back, a second time, \(difference(once, twice))") }
    }
    return 0
}

/// The contacts written as one file, read back.
private func writtenAndRead(_ contacts: [Contact], _ writer: VCardWriter) -> [Contact] {
    let text = contacts.map(writer.card(for:)).joined()
    let read = VCardReader().read(Data(text.utf8))
    guard read.problems.isEmpty else { fatalError("the writer's cards have problems \(read.problems):\n\(text)") }
    return read.entries.map(\.contact)
}

private func unordered(_ contact: Contact) -> Contact {
    var contact = contact
    let affixes = [VCardReader.namePrefixProperty + ":", VCardReader.nameSuffixProperty + ":"]
    contact.extraProperties = contact.extraProperties.filter { line in !affixes.contains { line.hasPrefix($0) } }.sorted()
    return contact
}
