import ArgumentParser
import ContactsApp
import Foundation
import SceneCore
import SceneRPC

/// What every one-shot reader shares: `--json`.
struct OneShotOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: "Print the result JSON-RPC returns for the same method ({displayed, routes, stack}; see Protocol.md).")
    var json = false
}

/// Paging for the commands that print contacts.
struct PagingOptions: ParsableArguments {
    @Option(name: .long, help: "Page to print, from 1.")
    var page = 1

    @Option(name: .long, help: "Contacts per page (1-\(ContactLimits.maximumPageSize)).")
    var limit = ContactLimits.maximumPageSize

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be 1 or more") }
        guard (1...ContactLimits.maximumPageSize).contains(limit) else {
            throw ValidationError("--limit must be from 1 to \(ContactLimits.maximumPageSize)")
        }
    }
}

/// A one-shot command: opens the book for reading (never making one), runs the list scene's
/// actions in a session as every front end does, and prints the last one's answer as the line
/// session does, or with `--json` as JSON-RPC does. Exit status 0 when something matched, 1
/// when nothing did or the action failed, 2 when the book cannot be opened.
enum OneShot {
    static func run(
        _ global: GlobalOptions, _ options: OneShotOptions, pageSize: Int = ContactLimits.maximumPageSize,
        writing: Bool = false, _ calls: [ActionCall]
    ) throws {
        // A command that changes the book opens it as a session does, its changes journalled
        // as the line session's (`undo` takes them back like any other).
        let session =
            writing
            ? try openSession(global, origin: "line", pageSize: pageSize).session
            : try openReadOnlySession(global, pageSize: pageSize)
        var outcome = Outcome()
        for call in calls {
            outcome = session.run(call)
            if !outcome.succeeded { break }
        }
        if options.json {
            let (json, succeeded) = OneShotResult.json(of: outcome, in: session)
            FileHandle.standardOutput.write(Data(json.serialized(pretty: true) + [UInt8(ascii: "\n")]))
            if !succeeded { throw ExitCode(1) }
        } else {
            let lines = LineSession(
                session: session, streams: StandardStreams(), bail: true,
                width: StandardStreams.outputColumns)
            lines.render(outcome)
            if !outcome.succeeded { throw ExitCode(1) }
        }
        if matchedNothing(outcome) { throw ExitCode(1) }
    }

    /// A listing with no rows: no contact found, no birthday coming, no duplicates.
    static func matchedNothing(_ outcome: Outcome) -> Bool {
        outcome.displayed.contains { viewModel in
            switch viewModel {
            // The book found no one, and no directory did either (issue 31).
            case let list as ListContacts.FetchContacts.ViewModel:
                return list.total == 0
                    && !outcome.displayed.contains {
                        ($0 as? ListContacts.SearchDirectories.ViewModel).map { !$0.rows.isEmpty } ?? false
                    }
            case let birthdays as Birthdays.UpcomingBirthdays.ViewModel: return birthdays.entries.isEmpty
            case let duplicates as Duplicates.FindDuplicates.ViewModel: return duplicates.groups.isEmpty
            case let groups as ListContacts.ListGroups.ViewModel: return groups.groups.isEmpty
            default: return false
            }
        }
    }

    /// The book opened for reading: a missing one is an error (exit 2), never made (`BookUse.reading`).
    static func openReadOnlySession(_ global: GlobalOptions, pageSize: Int) throws -> Session {
        let path = try global.bookPath(for: .reading)
        let store: SQLiteContactStore
        do {
            store = try SQLiteContactStore.openForReading(path: path, upgrading: { sayUpgrading(path) })
        } catch {
            FileHandle.standardError.write(Data("error: cannot open \(path): \(error)\n".utf8))
            throw ExitCode(2)
        }
        return ContactsSceneFactory.makeSession(
            environment: ContactsEnvironment(
                store: store, pageSize: pageSize, defaultCountry: bookCountry(), journal: store, syncState: store,
                directories: store, books: store))
    }
}

/// `contactsbook search TEXT`: contacts matching TEXT, as the list's `search` shows them.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Print contacts matching TEXT (names, organisation, emails, phone digits).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @OptionGroup var paging: PagingOptions
    @Argument(help: "Words that must all match.") var text: [String]

    func run() throws {
        var calls = [ActionCall(ListContacts.Action.search, ["text": .string(text.joined(separator: " "))])]
        if paging.page > 1 { calls.append(ActionCall(ListContacts.Action.page, ["number": .integer(paging.page)])) }
        try OneShot.run(global, options, pageSize: paging.limit, calls)
    }
}

/// `contactsbook list`: one page of the whole book (the largest page unless `--limit`).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Print the contacts, a page at a time.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @OptionGroup var paging: PagingOptions
    @Option(name: .long, help: "Only this group's members (its name, or the start of it).") var group: String?
    @Flag(name: .long, help: "Only the contacts in no group.") var ungrouped = false
    @Option(name: .long, help: "Only this address book's contacts (as 'contactsbook books' names them).") var book:
        String?

    func run() throws {
        var arguments: [String: ArgumentValue] = ["page": .integer(paging.page), "limit": .integer(paging.limit)]
        if let group { arguments["group"] = .string(group) }
        if ungrouped { arguments["ungrouped"] = .boolean(true) }
        if let book { arguments["book"] = .string(book) }
        try OneShot.run(global, options, pageSize: paging.limit, [ActionCall(ListContacts.Action.list, arguments)])
    }
}

/// `contactsbook show CONTACT`: every field of one contact.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print one contact, named by its number or its name.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Argument(
        help: "The contact's number (#) or a name.",
        completion: .custom { words, _, prefix in ShellNameCompletion.names(words, prefix) })
    var contact: [String]

    func run() throws {
        try OneShot.run(
            global, options,
            [ActionCall(ListContacts.Action.show, ["contact": .string(contact.joined(separator: " "))])])
    }
}

/// Contact names for a shell's Tab after `contactsbook show`: from the book its `--db` names
/// among the words typed (else the default book), starting with what was typed. Nothing when
/// there is no book or it cannot be read: completion never prints an error, never makes a book.
enum ShellNameCompletion {
    static func names(_ words: [String], _ prefix: String) -> [String] {
        var db: String?
        if let index = words.firstIndex(of: "--db"), index + 1 < words.count { db = words[index + 1] }
        if let word = words.first(where: { $0.hasPrefix("--db=") }) { db = String(word.dropFirst("--db=".count)) }
        let variables = ProcessInfo.processInfo.environment
        guard let path = db ?? (try? DefaultPaths.database(environment: variables)), path != ":memory:",
            FileManager.default.fileExists(atPath: path),
            let store = try? SQLiteContactStore.openForReading(path: path)
        else { return [] }
        let worker = ContactsWorker(
            environment: ContactsEnvironment(
                store: store, pageSize: 20, defaultCountry: nil,
                journal: store, syncState: store, directories: store, books: store))
        let names = worker.names(startingWith: prefix, sort: .last)
        // bash splits the candidates it is given at spaces: a name stays one word escaped.
        return variables["SAP_SHELL"] == "bash" ? names.map { $0.replacingOccurrences(of: " ", with: "\\ ") } : names
    }
}

/// `contactsbook birthdays [DAYS]`: for a login script.
struct BirthdaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "birthdays", abstract: "Print birthdays from today through the next DAYS days, soonest first.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Argument(help: "How many days ahead (0-366).") var days = BirthdaysInteractor.defaultDays

    func validate() throws {
        guard (0...366).contains(days) else { throw ValidationError("DAYS must be from 0 to 366") }
    }

    func run() throws {
        try OneShot.run(global, options, [ActionCall(ListContacts.Action.birthdays, ["days": .integer(days)])])
    }
}

/// `contactsbook duplicates`: groups of contacts that are probably one person.
struct DuplicatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates", abstract: "Print groups of contacts that are probably one person, and why.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions

    func run() throws {
        try OneShot.run(global, options, [ActionCall(ListContacts.Action.duplicates)])
    }
}
