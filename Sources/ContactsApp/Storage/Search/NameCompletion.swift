/// Which names complete what a person typed: a name any of whose words starts with it, as a
/// search finds them (folded: "jose" completes "José", "山" completes "山田 太郎"), so `show li`
/// offers "Anna Lindqvist". Ranked: names that start with the typed text first, then those
/// where a later word does, each in the order given (the list's sort order).
enum NameCompletion {
    static func names(_ contacts: [Contact], name: (Contact) -> String, typed: String) -> [String] {
        let typedWords = ContactSearch.words(ContactSearch.separatingDigits(ContactKeys.fold(typed)))
        guard !typedWords.isEmpty else { return contacts.map(name) }
        var starting: [String] = [], later: [String] = []
        for contact in contacts {
            let shown = name(contact)
            let words = ContactSearch.words(ContactSearch.separatingDigits(ContactKeys.fold(shown)))
            if ContactSearch.containsPhrasePrefix(typedWords, in: Array(words.prefix(typedWords.count))) {
                starting.append(shown)
            } else if ContactSearch.containsPhrasePrefix(typedWords, in: words) {
                later.append(shown)
            }
        }
        return starting + later
    }
}
