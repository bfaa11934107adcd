import Foundation
import SceneCore

public protocol ListContactsDirectoryDisplayLogic: AnyObject {
    func displayDirectoryResults(viewModel: ListContacts.SearchDirectories.ViewModel)
    func displayDirectoryEntry(viewModel: ListContacts.ShowDirectoryEntry.ViewModel)
}

extension ListContactsPresenter: ListContactsDirectoryPresentationLogic {
    private var directoryViewController: ListContactsDirectoryDisplayLogic? {
        viewController as? ListContactsDirectoryDisplayLogic
    }

    public func presentDirectoryResults(response: ListContacts.SearchDirectories.Response) {
        typealias Model = ListContacts.SearchDirectories.ViewModel
        var numbers: [String: Int] = [:]
        let rows = response.search.entries.map { entry -> Model.Row in
            numbers[entry.source, default: 0] += 1
            let contact = DirectoryMapping.contact(from: entry)
            return Model.Row(
                reference: "\(entry.source):\(numbers[entry.source]!)", directory: entry.source,
                dn: TerminalText.sanitize(entry.dn), name: formatter.displayName(contact),
                organization: contact.organization, email: contact.emails.first?.value ?? "",
                phone: contact.phones.first.map { formatter.phone($0.value) } ?? "")
        }
        let caption: String
        switch rows.count {
        case 0: caption = "No one in the directories"
        case 1:
            caption =
                "1 person in the directories; 'show \(rows[0].reference)' for every field, 'copy \(rows[0].reference)' to keep"
        default:
            caption =
                "\(rows.count) people in the directories; 'show \(rows[0].reference)' for every field, "
                + "'copy \(rows[0].reference)' to keep"
        }
        directoryViewController?.displayDirectoryResults(
            viewModel: .init(
                rows: rows, notices: response.search.notices.map(TerminalText.sanitize), caption: caption))
    }

    public func presentDirectoryEntry(response: ListContacts.ShowDirectoryEntry.Response) {
        directoryViewController?.displayDirectoryEntry(
            viewModel: DirectoryEntryFormatter(formatter: formatter)
                .viewModel(response.entry, contact: response.contact))
    }

    public func presentCopiedEntry(response: ListContacts.CopyDirectoryEntry.Response) {
        viewController?.displayMessage(
            .success(
                "Copied \(formatter.displayName(response.contact)) from directory "
                    + "\(response.directory) as #\(response.contact.id ?? 0)"))
    }

    public func presentDirectoryFailure(_ failure: DirectoryFailure) {
        let code: ErrorCode
        switch failure {
        case .invalid, .unknown: code = .notFound
        case .storage: code = .storage
        case .directory: code = .invalidState
        }
        viewController?.displayMessage(.error(TerminalText.sanitize(failure.description), code: code))
    }
}

/// A directory's entry as the detail shows it: the mapped fields, the photo, where it came from.
/// Shared by the list's `show corp:2` and `contactsbook directory show`.
public struct DirectoryEntryFormatter {
    let formatter: ContactFormatter
    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func viewModel(_ entry: DirectoryEntry, contact: Contact) -> ListContacts.ShowDirectoryEntry.ViewModel {
        typealias Field = ListContacts.ShowDirectoryEntry.ViewModel.Field
        var fields: [Field] = []
        func add(_ label: String, _ value: String) {
            if !value.isEmpty { fields.append(Field(label: label, value: TerminalText.sanitize(value))) }
        }
        add("Organization", contact.organization)
        add("Title", contact.title)
        for phone in contact.phones { add("Phone (\(phone.label))", formatter.phone(phone.value)) }
        for email in contact.emails { add("Email (\(email.label))", email.value) }
        for address in contact.addresses {
            add("Address (\(address.label))", address.components.joined(separator: ", "))
        }
        for website in contact.websites { add("Website", website.value) }
        add("Notes", contact.notes)
        let photo = DirectoryMapping.photo(entry)
        if let photo {
            add(
                "Photo",
                "JPEG image, \(ByteCountFormatter.string(fromByteCount: Int64(photo.count), countStyle: .file))")
        }
        add("Directory", entry.source)
        add("DN", entry.dn)
        return .init(
            directory: entry.source, dn: TerminalText.sanitize(entry.dn),
            name: TerminalText.sanitize(formatter.displayName(contact)), fields: fields,
            photo: photo.map { "data:image/jpeg;base64," + $0.base64EncodedString() })
    }
}
