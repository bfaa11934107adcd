import ArgumentParser
import ContactsApp
import Foundation

/// `contactsbook add-email`: reads a mail message on stdin (a mail client's pipe, as for `abook
/// --add-email` or `khard add-email`), offers to add its sender (`--all`: every address in it),
/// skips addresses already in the book, and records every address seen so searches rank the
/// people one writes to first. Stdin being the message, questions go to the terminal
/// (/dev/tty); without one nothing is added unless `--yes`.
struct AddEmailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-email",
        abstract: "Add the sender of the mail message on stdin (--all: every address in it) to the book.",
        discussion: """
            For a mail client's pipe, e.g. neomutt: macro index,pager A "<pipe-message>contactsbook add-email<return>". \
            Each new address is offered on the terminal (/dev/tty), y to add; --yes adds them without asking. \
            Addresses already in the book are skipped; every address of the message is recorded as seen, \
            so searches and query list the people you write to first. The adds are one change ('undo' takes it back).
            """)

    /// A message's header block is far smaller; beyond this the rest is not read.
    static let readLimit = 16 << 20

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Offer every address of the message (From, Reply-To, To, Cc, Bcc), not only the sender.")
    var all = false

    @Flag(name: .long, help: "Add every new address without asking.")
    var yes = false

    func run() throws {
        let bytes = FileHandle.standardInput.readData(ofLength: Self.readLimit)
        let message = MailMessage.parse(bytes)
        let book = try openSession(global, origin: "mail")
        defer { closeBeforeExit(book.store) }
        let worker = AddFromMailWorker(environment: book.environment, seen: book.store)
        let presenter = AddFromMailPresenter(
            formatter: ContactFormatter(timeZone: book.environment.timeZone))
        do {
            try worker.recordSeen(message)
            let candidates = try worker.candidates(in: message, all: all)
            guard !candidates.isEmpty else {
                write("error: \(presenter.nothingFound(all: all))\n", to: .standardError)
                throw ExitCode(1)
            }
            for line in presenter.skipped(candidates) { write(line + "\n", to: .standardOutput) }
            let offered = candidates.filter { $0.status == .new }
            var accepted: [MailCandidate] = []
            if yes {
                accepted = offered
            } else if !offered.isEmpty, let terminal = Terminal() {
                for candidate in offered {
                    if terminal.ask(presenter.question(candidate)) {
                        accepted.append(candidate)
                    } else {
                        write(presenter.declined(candidate) + "\n", to: .standardOutput)
                    }
                }
            } else {
                for line in presenter.notAsked(offered) { write(line + "\n", to: .standardOutput) }
            }
            let saved = try worker.add(accepted.map(\.mailbox))
            for line in presenter.added(saved) { write(line + "\n", to: .standardOutput) }
        } catch let error as ExitCode {
            throw error
        } catch {
            write("error: \(presenter.failure(error))\n", to: .standardError)
            throw ExitCode(1)
        }
    }
}

/// The controlling terminal, for a question while stdin is the message.
private struct Terminal {
    private let handle: FileHandle

    init?() {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Puts the question and reads a line: yes for `y` or `yes`, any case; no for anything else
    /// or the end of input.
    func ask(_ question: String) -> Bool {
        handle.write(Data(question.utf8))
        var line: [UInt8] = []
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first, first != UInt8(ascii: "\n") else { break }
            line.append(first)
        }
        let answer = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return answer == "y" || answer == "yes"
    }
}
