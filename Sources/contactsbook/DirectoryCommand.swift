import ArgumentParser
import ContactsApp
import Foundation
import SceneCore

/// `contactsbook directory add|list|remove|test|show|copy`: the organisation's LDAP directories,
/// searched live by `search`, `query`, `--lsp` and `--mcp` beside the book (issue 31).
struct DirectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "directory", abstract: "Add, list, test or remove LDAP directories searched beside the book.",
        subcommands: [Add.self, List.self, Remove.self, Test.self, Show.self, Copy.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an LDAP directory: ldap[s]://HOST[:PORT]/BASE-DN.",
            discussion:
                "ldap:// uses StartTLS and ldaps:// TLS, both checking the server's certificate (--ca-file names "
                + "the authority that signed it when the system does not know it); --plaintext sends everything in clear, "
                + "for a server on this machine. Anonymous unless --bind-dn; the password is never stored: "
                + "--password-command runs when a search needs it (sh -c; the first line it prints). "
                + "Example: contactsbook directory add corp ldaps://ldap.example.org/ou=people,dc=example,dc=org")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "A one-word name for the directory.") var name: String
        @Argument(help: "ldap://HOST[:PORT]/BASE-DN or ldaps://...") var url: String
        @Option(name: .long, help: ArgumentHelp("The DN to bind as (default: anonymous).", valueName: "dn")) var bindDN:
            String?
        @Option(
            name: .long,
            help: ArgumentHelp("A command printing the bind password (pass show ldap).", valueName: "command"))
        var passwordCommand: String?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "What entries are people (default: \(DirectorySource.defaultFilter)).",
                valueName: "filter"))
        var filter: String?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "The CA certificate (PEM) the server's certificate is checked against.",
                valueName: "path"), completion: .file())
        var caFile: String?
        @Flag(name: .long, help: "ldap:// without StartTLS: names and passwords in clear (a server on this machine).")
        var plaintext = false
        @Option(
            name: .long,
            help: "Entries one search returns at most (1-1000, default \(DirectorySource.defaultSizeLimit)).")
        var sizeLimit: Int?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Seconds one search may take (default \(Int(DirectorySource.defaultTimeLimit))).",
                valueName: "seconds"))
        var timeLimit: Double?

        func run() throws {
            try withDirectories(global, use: .writing) { worker in
                let source = try worker.add(
                    name: name, url: url, bindDN: bindDN, passwordCommand: passwordCommand,
                    filter: filter, plaintext: plaintext, caFile: caFile, sizeLimit: sizeLimit,
                    timeLimit: timeLimit)
                write(DirectoryPresenter().added(source), to: .standardOutput)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the directories.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try withDirectories(global, use: .reading) { worker in
                write(DirectoryPresenter().sources(try worker.list()), to: .standardOutput)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a directory; contacts copied from it stay in the book.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The directory's name.") var name: String

        func run() throws {
            try withDirectories(global, use: .reading) { worker in
                try worker.remove(name: name)
                write(DirectoryPresenter().removed(name), to: .standardOutput)
            }
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test", abstract: "Connect, bind and look for one person; say what worked or why not.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The directory's name.") var name: String

        func run() throws {
            try withDirectories(global, use: .reading) { worker in
                let source = try worker.source(named: name)
                let answer = try worker.test(name: name)
                let (text, ok) = DirectoryPresenter().tested(source, answer)
                write("\(ok ? "" : "error: ")\(text)", to: ok ? .standardOutput : .standardError)
                if !ok { throw ExitCode(1) }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show a directory's entry, every field (the DN as `search --json` gives it)."
        )
        @OptionGroup var global: GlobalOptions
        @Flag(name: .long, help: "Print the entry as JSON (the directoryEntry ViewModel).") var json = false
        @Argument(help: "The directory's name.") var name: String
        @Argument(help: "The entry's DN.") var dn: String

        func run() throws {
            try withDirectories(global, use: .reading) { worker in
                let entry = try worker.entry(name: name, dn: dn)
                let model = DirectoryEntryFormatter(
                    formatter: ContactFormatter(
                        timeZone: .current,
                        defaultCountry: nil)
                )
                .viewModel(entry, contact: DirectoryMapping.contact(from: entry))
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    write(String(decoding: try encoder.encode(model), as: UTF8.self) + "\n", to: .standardOutput)
                } else {
                    write(DirectoryPresenter().entry(model), to: .standardOutput)
                }
            }
        }
    }

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy", abstract: "Copy a directory's entry into the book (journalled: 'undo' takes it back).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The directory's name.") var name: String
        @Argument(help: "The entry's DN.") var dn: String

        func run() throws {
            try withDirectories(global, use: .writing, origin: "line") { worker in
                let contact = try worker.copy(worker.entry(name: name, dn: dn))
                write(DirectoryPresenter().copied(contact, from: name), to: .standardOutput)
            }
        }
    }
}

/// Opens the book for the directory commands, or exits with status 2 and a clear error.
/// Opens the book's directories for `body`, closes the book after it, and says a directory's
/// failure the one way every `directory` subcommand does (an error line, exit status 1).
func withDirectories(
    _ global: GlobalOptions, use: BookUse, origin: String? = nil,
    _ body: (DirectoryWorker) throws -> Void
) throws {
    let (worker, store) = try openDirectories(global, use: use, origin: origin)
    defer { closeBeforeExit(store) }
    do {
        try body(worker)
    } catch let failure as DirectoryFailure {
        write("error: \(terminalLines(failure.description))\n", to: .standardError)
        throw ExitCode(1)
    }
}

func openDirectories(_ global: GlobalOptions, use: BookUse, origin: String? = nil) throws -> (
    DirectoryWorker, SQLiteContactStore
) {
    let path = try global.bookPath(for: use)
    do {
        let store = try SQLiteContactStore(path: path, upgrading: { sayUpgrading(path) })
        if let origin { store.journalOrigin = origin }
        return (DirectoryWorker(sources: store, journal: store), store)
    } catch {
        write("error: cannot open \(path): \(error)\n", to: .standardError)
        throw ExitCode(2)
    }
}
