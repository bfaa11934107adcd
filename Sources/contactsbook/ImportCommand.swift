import ArgumentParser
import ContactsApp
import Foundation
import SceneCore

/// `contactsbook import FILE|-`: imports a vCard or CSV file, or standard input, without a
/// session script; runs the list scene's `import` action, so it reports as the session does.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a vCard or CSV file, or standard input (-).")

    /// What the list scene's `import` action accepts as its `format`.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case auto, vcard, csv
    }

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "auto (csv for a .csv file, else vcard), vcard or csv.")
    var format = Format.auto

    @Argument(help: "The file to read, or - for standard input.", completion: .file())
    var file: String

    func run() throws {
        let session = try openSession(global, origin: "line").session
        let path = file == "-" ? "/dev/stdin" : file
        let lines = LineSession(
            session: session, streams: StandardStreams(), bail: false,
            width: StandardStreams.outputColumns)
        _ = lines.handle(
            call: ActionCall(ListContacts.Action.import, ["path": .string(path), "format": .string(format.rawValue)]))
        if lines.failures > 0 { throw ExitCode(1) }
    }
}
