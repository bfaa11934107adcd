import Foundation
import FuzzSupport

@testable import ContactsApp

/// One input is a .csv file: ours, or a Google or Outlook export.
///
/// Checks, beyond no crash, leak or hang:
/// - reading in small batches gives what reading the file at once gives;
/// - the contacts read, exported as our CSV, read back the same, every column.
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
    // Every column comes back exactly, the multi-value ones too (their items escape the
    // separators ` | `, `:` and `;` they hold).
    guard once == contacts else { fatalError("our CSV read back \(difference(contacts, once))") }
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
