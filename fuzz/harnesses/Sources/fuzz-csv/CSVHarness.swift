@testable import ContactsApp
import Foundation
import FuzzSupport

/// One input is a .csv file: ours, or a Google or Outlook export.
///
/// Checks, beyond no crash, leak or hang:
/// - reading in small batches gives what reading the file at once gives;
/// - the contacts read, exported as our CSV, read back with the same single-valued columns,
///   and a second trip changes nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(input(start, count))
    let whole = ContactsCSV.read(data)

    var batched = ParsedContacts()
    ContactsCSV.read(data, batchSize: 1) { batch in
        batched.entries += batch.entries
        batched.problems += batch.problems
    }
    guard batched == whole else { fatalError("batches read \(batched), the whole file \(whole)") }

    let contacts = whole.entries.map(\.contact)
    let once = writtenAndRead(contacts)
    // One value per column comes back exactly. The columns that hold several items (emails,
    // phones, addresses, tags) have no escaping for their separators (` | `, `:`, `;`), so an
    // item holding one is split differently: known, see bench/ROBUSTNESS.md. Those must at
    // least come back the same from a second trip.
    guard once.map(singleValued) == contacts.map(singleValued) else {
        fatalError("our CSV read back \(difference(contacts.map(singleValued), once.map(singleValued)))")
    }
    let twice = writtenAndRead(once)
    guard twice == once else { fatalError("our CSV read back, a second time, \(difference(once, twice))") }
    return 0
}

/// The contacts written as our CSV, read back.
private func writtenAndRead(_ contacts: [Contact]) -> [Contact] {
    var bytes = Array(ContactsCSV.header.utf8)
    ContactsCSV.append(contacts, to: &bytes)
    let read = ContactsCSV.read(Data(bytes))
    guard read.problems.isEmpty else {
        fatalError("our CSV has problems \(read.problems):\n\(String(decoding: bytes, as: UTF8.self))")
    }
    return read.entries.map(\.contact)
}

private func singleValued(_ contact: Contact) -> Contact {
    var contact = contact
    contact.emails = []; contact.phones = []; contact.addresses = []; contact.tags = []
    return contact
}
