import ArgumentParser
import ContactsApp
import Foundation
import SceneCore

/// `contactsbook books [--json]`: the session's `books`.
struct BooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "books", abstract: "Print the address books: this file's and each account's, with their contacts.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions

    func run() throws { try OneShot.run(global, options, [ActionCall(ListContacts.Action.books)]) }
}

/// `contactsbook move CONTACT... BOOK`: the session's `move`.
struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move contacts to another address book (on servers at the next sync).",
        discussion: "Example: contactsbook move 3 7 work   ·   contactsbook move 'Ann Lee' local")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Argument(help: "The contacts (numbers or names, one argument each), then the book.") var words: [String]

    func validate() throws {
        guard words.count >= 2 else { throw ValidationError("name the contacts, then the book: move 3 7 work") }
    }

    func run() throws {
        // Each argument one reference, quoted for the session's list of words.
        let references = words.dropLast().map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        try OneShot.run(
            global, options, writing: true,
            [
                ActionCall(
                    ListContacts.Action.move,
                    [
                        "contacts": .string(references.joined(separator: " ")), "book": .string(words[words.count - 1]),
                    ])
            ])
    }
}

/// `contactsbook copy CONTACT... BOOK`: the session's `copy`.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy", abstract: "Copy contacts into another address book (new contacts; the originals stay).",
        discussion: "Works from a read-only book too. Example: contactsbook copy 12 local")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: OneShotOptions
    @Argument(help: "The contacts (numbers or names, one argument each), then the book.") var words: [String]

    func validate() throws {
        guard words.count >= 2 else { throw ValidationError("name the contacts, then the book: copy 12 local") }
    }

    func run() throws {
        let references = words.dropLast().map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        try OneShot.run(
            global, options, writing: true,
            [
                ActionCall(
                    ListContacts.Action.copy,
                    [
                        "contacts": .string(references.joined(separator: " ")), "book": .string(words[words.count - 1]),
                    ])
            ])
    }
}

/// `contactsbook book readonly NAME on|off` and `book default NAME`: a book's settings.
struct BookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book", abstract: "Mark an address book read-only, or make it the default for new contacts.",
        subcommands: [ReadOnly.self, Default.self])

    struct ReadOnly: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "readonly", abstract: "Mark a book read-only (on) or writable again (off).",
            discussion: "Its contacts can still be searched, shown, completed and copied; every change is refused. "
                + "A book the server does not let us write stays read-only whatever this says.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The book's name, as 'contactsbook books' shows it.") var name: String
        @Argument(help: "on or off.") var state: String

        func validate() throws {
            guard ["on", "off"].contains(state) else { throw ValidationError("say on or off, not '\(state)'") }
        }

        func run() throws {
            try BookCommand.change(global) { worker in
                let book = try worker.setReadOnly(book: name, state == "on")
                return "Book \(book.name): " + (book.markedReadOnly ? "read-only" : "writable")
                    + (book.serverReadOnly ? " (the server does not let us write it)" : "") + "."
            }
        }
    }

    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "default", abstract: "Make a book the one new contacts go to.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The book's name, as 'contactsbook books' shows it.") var name: String

        func run() throws {
            try BookCommand.change(global) { worker in
                let book = try worker.setDefault(book: name)
                return "New contacts go to book \(book.name)."
            }
        }
    }

    /// Opens the book, runs the change, prints its line, or the failure with exit status 1.
    static func change(_ global: GlobalOptions, _ body: (ContactsWorker) throws -> String) throws {
        let path = try global.bookPath(for: .reading)
        let store: SQLiteContactStore
        do { store = try SQLiteContactStore(path: path, upgrading: { sayUpgrading(path) }) } catch {
            FileHandle.standardError.write(Data("error: cannot open \(path): \(error)\n".utf8))
            throw ExitCode(2)
        }
        let worker = ContactsWorker(
            environment: ContactsEnvironment(
                store: store, pageSize: 20, defaultCountry: nil,
                journal: store, syncState: store, directories: store, books: store))
        do {
            print(try body(worker))
        } catch let failure as ContactsFailure {
            let message = ContactFormatter(timeZone: .current).message(
                for: failure)
            FileHandle.standardError.write(Data("error: \(terminalLines(message.text))\n".utf8))
            throw ExitCode(1)
        }
    }
}
