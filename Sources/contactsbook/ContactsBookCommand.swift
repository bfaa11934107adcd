import ArgumentParser
import SceneRPC

/// The root command: global options, the version, and the subcommands. With no subcommand
/// it runs a session (`SessionCommand`), as `contactsbook` always has.
struct ContactsBookCommand: ParsableCommand {
    /// The one version string: `--version` prints it and JSON-RPC's `initialize` reports it.
    static let version = "0.1.0"
    static let serverInfo = RPCServerInfo(name: "contactsbook", version: version)

    static let configuration = CommandConfiguration(
        commandName: "contactsbook",
        abstract: "A contacts book for the terminal, editors and scripts.",
        discussion: """
            With no subcommand, runs a session: the REPL on a terminal, else one command per line \
            (try 'help'); 'contactsbook session --help' lists its options (--rpc, --repl, ...). \
            The book lives in ${XDG_DATA_HOME:-~/.local/share}/contactsbook/contacts.sqlite unless --db \
            says otherwise; --db and --log-level go before or after the subcommand. \
            'man contactsbook' (one page per subcommand too) and the shell completions for bash, zsh \
            and fish come with 'scripts/install'; '--generate-completion-script bash|zsh|fish' prints one.
            """,
        version: version,
        subcommands: [
            SessionCommand.self, QueryCommand.self, ImportCommand.self, SearchCommand.self, ShowCommand.self,
            ListCommand.self, BirthdaysCommand.self, DuplicatesCommand.self, AccountCommand.self, SyncCommand.self,
            DirectoryCommand.self,
            AddEmailCommand.self, ExportCommand.self, HistoryCommand.self, UndoCommand.self, TrashCommand.self,
            AddCommand.self, EditCommand.self, DeleteCommand.self, GroupsCommand.self, GroupCommand.self,
            BooksCommand.self, BookCommand.self, MoveCommand.self, CopyCommand.self,
        ],
        defaultSubcommand: SessionCommand.self)

    @OptionGroup var global: GlobalOptions
}
