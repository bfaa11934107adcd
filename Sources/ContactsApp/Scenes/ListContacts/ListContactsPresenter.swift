import SceneCore

public protocol ListContactsPresentationLogic {
    func presentFetchedContacts(response: ListContacts.FetchContacts.Response)
    func presentSelectedContact(response: ListContacts.SelectContact.Response)
    func presentDeletedContact(response: ListContacts.DeleteContact.Response)
    func presentDeleteConfirmation(response: ListContacts.DeleteContact.ConfirmationResponse)
    func presentInsertedContact(response: ListContacts.ShowInsertedContact.Response)
    func presentImportedContacts(response: ListContacts.ImportContacts.Response)
    func presentExportedContacts(response: ListContacts.ExportContacts.Response)
    func presentSyncedContacts(response: ListContacts.SyncContacts.Response)
    func presentCompletions(response: ListContacts.CompleteReference.Response)
    func presentFailure(_ failure: ContactsFailure)
    func presentUndoneChange(response: ListContacts.UndoChange.Response)
}

public final class ListContactsPresenter: ListContactsPresentationLogic {
    weak var viewController: ListContactsDisplayLogic?
    weak var groupsViewController: ListContactsGroupsDisplayLogic?
    weak var booksViewController: ListContactsBooksDisplayLogic?
    let formatter: ContactFormatter

    public init(formatter: ContactFormatter) { self.formatter = formatter }

    public func presentFetchedContacts(response: ListContacts.FetchContacts.Response) {
        let query = response.query, total = response.page.total
        let pageCount = max(1, (total + query.limit - 1) / query.limit)
        var caption: [String] = []
        let within = response.groupName.map { "in group \($0)" } ?? (query.group == .ungrouped ? "in no group" : nil)
        if total == 0 {
            let empty = [within, query.book.map { "in book \($0)" }].compactMap { $0 }.joined(separator: " ")
            if query.group == .ungrouped && query.search.isEmpty && query.book == nil {
                caption.append("Every contact is in a group")
            } else if !empty.isEmpty {
                caption.append(
                    query.search.isEmpty
                        ? "No contacts \(empty)" : "No contacts \(empty) match \(Self.quoted(query.search))")
            } else {
                caption.append(
                    query.search.isEmpty
                        ? "No contacts yet; add one with 'add'" : "No contacts match \(Self.quoted(query.search))")
            }
        } else {
            caption.append("Page \(query.page) of \(pageCount)")
            caption.append((total == 1 ? "1 contact" : "\(total) contacts") + (within.map { " " + $0 } ?? ""))
            if !query.search.isEmpty { caption.append("matching \(Self.quoted(query.search))") }
            if let book = query.book { caption.append("in book \(book)") }
            caption.append(query.sort == .last ? "by last name" : "by first name")
        }
        viewController?.displayFetchedContacts(
            viewModel: .init(
                rows: response.page.contacts.map { contact in
                    var shown = row(contact, matched: response.page.matches[contact.id ?? 0], search: query.search)
                    shown.book = response.page.books[contact.id ?? 0]
                    return shown
                },
                page: query.page, pageCount: pageCount, total: total,
                search: query.search, sort: query.sort.rawValue, caption: caption.joined(separator: " · "),
                group: response.groupName, ungrouped: query.group == .ungrouped, book: query.book))
    }

    /// The search in quotes for a caption, its start only when long: a 20 MB command line was
    /// echoed back whole (bench/ROBUSTNESS.md).
    static func quoted(_ search: String) -> String {
        let limit = 80
        guard search.count > limit else { return "\"\(search)\"" }
        return "\"\(search.prefix(limit))…\" (\(search.count) characters)"
    }

    public func presentSelectedContact(response: ListContacts.SelectContact.Response) {
        viewController?.displaySelectedContact(
            viewModel: .init(id: response.contact.id ?? 0, purpose: response.purpose))
    }

    public func presentDeletedContact(response: ListContacts.DeleteContact.Response) {
        viewController?.displayDeletedContact(
            viewModel: .init(message: .success("Deleted \(formatter.displayName(response.contact))")))
    }

    public func presentDeleteConfirmation(response: ListContacts.DeleteContact.ConfirmationResponse) {
        let id = response.contact.id ?? 0
        let name = formatter.displayName(response.contact)
        let reference = response.reference.trimmingCharacters(in: .whitespaces)
        viewController?.displayDeleteConfirmation(
            viewModel: .init(
                id: id, question: "Delete \(name) (#\(id))?", declined: "Nothing deleted",
                refusal: "not deleted: '\(reference)' is only part of \(name)'s name; name the contact exactly "
                    + "(delete \(id)) or confirm (delete \(reference) yes)"))
    }

    public func presentInsertedContact(response: ListContacts.ShowInsertedContact.Response) {
        let position = response.position + 1
        let page = response.query.page
        let name = formatter.displayName(response.contact)
        viewController?.displayInsertedContact(
            viewModel: .init(
                row: row(response.contact), position: position, page: page,
                text: "\(name) is number \(position) of \(response.total) in the list (page \(page))"))
    }

    /// "Imported book.vcf: 3 added, 1 updated, 2 unchanged", then what could not be read, was
    /// skipped, kept but not valid or changed in reading, each named below by line (and by file,
    /// for a folder). A file that held something but gave not one contact is an error.
    public func presentImportedContacts(response: ListContacts.ImportContacts.Response) {
        let report = response.report
        let files = report.files.map { " (\(count($0, ".vcf file")))" } ?? ""
        var parts: [String] = []
        if report.newUIDs > 0 {
            parts.append("\(count(report.newUIDs, "card")) without a UID of its own given a new one")
        }
        if report.problemCount > 0 { parts.append("\(count(report.problemCount, "card")) could not be read") }
        if report.skippedLines > 0 { parts.append("\(count(report.skippedLines, "line")) outside any card skipped") }
        if report.invalidValues > 0 { parts.append("\(count(report.invalidValues, "value")) kept but not valid") }
        if report.changes > 0 { parts.append("\(count(report.changes, "change")) made in reading") }
        if report.groupsAdded + report.groupsUpdated > 0 {
            parts.insert(
                "\(count(report.groupsAdded + report.groupsUpdated, "group")) (\(report.groupsAdded) added, \(report.groupsUpdated) updated)",
                at: 0)
        }
        let text =
            report.readNothing
            ? "Nothing imported from \(response.path)\(files): " + parts.joined(separator: "; ")
            : "Imported \(response.path)\(files): \(report.added) added, \(report.updated) updated, \(report.unchanged) unchanged"
                + parts.map { "; " + $0 }.joined()
        guard report.problemCount > 0 || report.warningCount > 0 else {
            viewController?.displayImportedContacts(viewModel: .init(message: .success(text)))
            return
        }
        let all = report.problems + report.warnings
        // Line numbers padded to one width, so details sorted by key read in file order.
        let shown = all.prefix(Self.maximumProblemsShown)
        let width = String(shown.map(\.line).max() ?? 0).count
        var details: [String: String] = [:]
        for problem in shown {
            let number = String(problem.line)
            let line = "line " + String(repeating: " ", count: width - number.count) + number
            let key = problem.file.map { problem.line == 0 ? $0 : "\($0) \(line)" } ?? line
            details[key] = details[key].map { $0 + "; " + problem.reason } ?? problem.reason
        }
        let total = report.problemCount + report.warningCount
        if total > shown.count {
            details["more"] = "\(total - shown.count) more problems not shown"
        }
        viewController?.displayImportedContacts(
            viewModel: .init(
                message: report.readNothing
                    ? .error(text, code: .badInput, details: details) : Message(.info, text, details: details)))
    }

    /// Enough to find the trouble without flooding a terminal.
    static let maximumProblemsShown = 50

    /// "Exported 3 contacts to book.vcf as vCard 4.0", and when writing kept cards in that
    /// version changed them, how many and each kind of change with its count and first contacts
    /// (as an import names its changes). For `-`, the text, with the changes beside it.
    public func presentExportedContacts(response: ListContacts.ExportContacts.Response) {
        let report = response.report
        var changes: [String: String] = [:]
        for (index, conversion) in report.conversions.enumerated() {
            let named = conversion.contacts.map { contact in
                contact.id.map { "\(contact.name) (#\($0))" } ?? contact.name
            }
            let more = conversion.count > named.count ? ", and \(conversion.count - named.count) more" : ""
            // Keys numbered so that details sorted by key keep the order met.
            let key =
                "change "
                + String(repeating: " ", count: String(report.conversions.count).count - String(index + 1).count)
                + "\(index + 1)"
            changes[key] =
                "\(conversion.note): \(count(conversion.count, "contact")) (\(named.joined(separator: ", "))\(more))"
        }
        let changed =
            report.convertedContacts > 0
            ? "; \(count(report.convertedContacts, "contact")) changed to be valid \(report.format.displayName)" : ""
        if let text = report.text {
            viewController?.displayExportedContacts(
                viewModel: .init(
                    format: report.format.rawValue, mediaType: report.format == .csv ? "text/csv" : "text/vcard",
                    count: report.count, text: text, changes: changes.keys.sorted().compactMap { changes[$0] }))
            return
        }
        let text =
            "Exported \(count(report.count, "contact")) to \(report.path ?? "") as \(report.format.displayName)"
            + changed
        viewController?.displayExportedFile(
            viewModel: .init(message: changes.isEmpty ? .success(text) : Message(.info, text, details: changes)))
    }

    /// Names as stored: what Tab inserts must find the contact again.
    public func presentCompletions(response: ListContacts.CompleteReference.Response) {
        viewController?.displayCompletions(viewModel: .init(candidates: response.names))
    }

    private func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }

    /// One line per account; an error when any account failed (the others' lines in its details).
    public func presentSyncedContacts(response: ListContacts.SyncContacts.Response) {
        let words = SyncPresenter()
        var accounts: [ListContacts.SyncContacts.ViewModel.Account] = []
        var lines: [String] = [], failures: [String] = []
        for result in response.results {
            switch result {
            case .success(let summary):
                let line = words.summary(summary), failedCards = words.failedCards(summary)
                accounts.append(.init(summary: line, error: failedCards))
                // An account whose failed cards are named in its line: the line is the error.
                if failedCards != nil { failures.append(line) } else { lines.append(line) }
            case .failure(let failure):
                accounts.append(.init(summary: nil, error: "\(failure)"))
                failures.append("\(failure)")
            }
        }
        let message: Message
        if response.results.isEmpty {
            message = .info("No accounts to sync; add one with 'contactsbook account add'.")
        } else if failures.isEmpty {
            message = .success(lines.joined(separator: "\n"))
        } else {
            var details: [String: String] = [:]
            for (index, line) in lines.enumerated() { details["synced \(index + 1)"] = line }
            message = .error((failures).joined(separator: "\n"), code: .storage, details: details)
        }
        viewController?.displaySyncedContacts(viewModel: .init(accounts: accounts, message: message))
    }

    public func presentFailure(_ failure: ContactsFailure) {
        viewController?.displayMessage(formatter.message(for: failure))
    }

    func row(_ contact: Contact, matched: SearchMatch? = nil, search: String = "") -> ListContacts.Row {
        var row = formatter.row(contact)
        row.matched = matched.flatMap { describe($0, shownIn: row, search: search) }
        return row
    }

    // MARK: - The journal

    /// "Undid: deleted Bob Stone", "Redid: deleted Bob Stone".
    public func presentUndoneChange(response: ListContacts.UndoChange.Response) {
        viewController?.displayUndoneChange(
            viewModel: .init(message: .success("\(response.redo ? "Redid" : "Undid"): \(response.change.summary)")))
    }

    /// What a search matched, briefly, unless the row shows it already (the name, the
    /// organisation, the first email or phone).
    func describe(_ match: SearchMatch, shownIn row: ListContacts.Row, search: String = "") -> String? {
        let text = match.field == .phone ? formatter.phone(match.text) : match.text
        switch match.field {
        case .name, .organization: return nil
        case .email where text == row.email, .phone where text == row.phone: return nil
        default:
            let words = search.split(whereSeparator: \.isWhitespace).map(String.init)
            return "\(match.field.rawValue): \(Self.excerpt(text, around: words, length: Self.matchedLength))"
        }
    }

    /// Characters of a matched field shown in a row.
    static let matchedLength = 32

    /// The line of `text` holding the first of `words` found (case and accents aside), cut to
    /// about `length` characters around that word, at word boundaries, `…` where cut: notes run
    /// long, and the word searched for must stay in sight. Without any, the first line's start.
    static func excerpt(_ text: String, around words: [String], length: Int) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        var found: (line: [Character], start: Int, end: Int)?
        search: for word in words where !word.isEmpty {
            for line in lines {
                guard let range = line.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) else {
                    continue
                }
                let start = line.distance(from: line.startIndex, to: range.lowerBound)
                found = (Array(line), start, start + line.distance(from: range.lowerBound, to: range.upperBound))
                break search
            }
        }
        let line = found?.line ?? Array(lines.first ?? "")
        var matchStart = found?.start ?? 0, matchEnd = found?.end ?? 0
        guard line.count > length else { return String(line) }
        if found != nil {
            // The whole word the search matched a part of ("orch" shows "orchestra").
            while matchStart > 0, !line[matchStart - 1].isWhitespace { matchStart -= 1 }
            while matchEnd < line.count, !line[matchEnd].isWhitespace { matchEnd += 1 }
        }
        // The room beside the word, shared; what one side cannot use goes to the other.
        let room = max(0, length - 2 - (matchEnd - matchStart))
        var before = min(matchStart, room / 2)
        let after = min(line.count - matchEnd, room - before)
        before = min(matchStart, room - after)
        var start = matchStart - before, end = matchEnd + after
        // Whole words only: move a cut inwards to the nearest space, never into the word found.
        if start > 0, !line[start - 1].isWhitespace {
            start = line[start..<matchStart].firstIndex(where: \.isWhitespace).map { $0 + 1 } ?? matchStart
        }
        if end < line.count, !line[end].isWhitespace {
            end = line[matchEnd..<end].lastIndex(where: \.isWhitespace) ?? matchEnd
        }
        var excerpt = String(line[start..<end]).trimmingCharacters(in: .whitespaces)
        if start > 0 { excerpt = "…" + excerpt }
        if end < line.count { excerpt += "…" }
        return excerpt
    }
}

extension ContactFormatter {
    /// A contact as a row of the list (and of the duplicates scene's groups): the name to show,
    /// the phones formatted.
    func row(_ contact: Contact) -> ListContacts.Row {
        ListContacts.Row(
            id: contact.id ?? 0, name: displayName(contact), organization: contact.organization, emails: contact.emails,
            phones: contact.phones.map { LabeledValue(label: $0.label, value: phone($0.value)) })
    }
}
