// The composition root: ArgumentParser picks the command (a session by default), which opens
// the book, builds the app's session and hands it to the front end that fits stdin
// (`contactsbook query ...` is parsed by the query command alone: CommandLineEntry.swift).
ContactsBookCommand.run(Array(CommandLine.arguments.dropFirst()))
