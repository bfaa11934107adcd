// The composition root: ArgumentParser picks the command (a session by default), which opens
// the book, builds the app's session and hands it to the front end that fits stdin.
ContactsBookCommand.main()
