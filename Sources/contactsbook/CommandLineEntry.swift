import ArgumentParser

extension ContactsBookCommand {
    /// Runs the command line: `ContactsBookCommand.main(arguments)`, except that
    /// `contactsbook query ...`, the form mail clients are given, is first parsed as `query`'s
    /// arguments alone (`MailQueryArguments`). ArgumentParser reflects over every command of the
    /// tree it is given, and that cost a mail client's `query` two thirds of its start-up
    /// (bench/STARTUP.md). Only a query that parses is run this way; anything else (help,
    /// `--version`, a bad option, a completion request) goes through the whole tree, so its texts
    /// and exit statuses are the tree's.
    static func run(_ arguments: [String]) {
        if arguments.first == "query",
           let query = try? MailQueryArguments.parseAsRoot(Array(arguments.dropFirst())) as? MailQueryArguments {
            do {
                try query.run()
            } catch {
                exit(withError: error)
            }
            return
        }
        main(arguments)
    }
}
