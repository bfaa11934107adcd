#!/bin/bash
# Whether two books imported from the same file hold the same rows: every table an import
# writes, in a fixed order, with what differs by the moment alone taken out (the contacts'
# `created_at`/`updated_at`, the change set's time and session token, the dates in the change
# entries' images, whose JSON is compared member by member: its keys come in no fixed order). The FTS5 tables are
# compared by what they index, entry by entry (`fts5vocab` 'instance': term, row, column,
# offset), not by their shadow tables' segments, whose cut depends on how many rows each
# statement handed FTS5; the word list's trigram table by its words (its rowids follow the
# order the words were added in, a hash table's order before `flushWords` sorted them).
#
#   bench/import-same-rows.sh BOOK1 BOOK2     exit 0 and "same rows" when they hold the same
set -eu
[ $# -eq 2 ] || { echo "usage: bench/import-same-rows.sh BOOK1 BOOK2" >&2; exit 64; }
W=${TMPDIR:-/tmp}/import-same-rows
mkdir -p "$W"
dump() {
    local copy=$W/$2.db
    rm -f "$copy"*
    sqlite3 "$1" ".backup '$copy'"
    local columns
    columns=$(sqlite3 "$copy" "SELECT group_concat(name, ', ') FROM pragma_table_info('contact') WHERE name NOT IN ('created_at', 'updated_at')")
    sqlite3 "$copy" <<SQL
CREATE VIRTUAL TABLE temp.text_entries USING fts5vocab(main, contact_text, 'instance');
CREATE VIRTUAL TABLE temp.phone_entries USING fts5vocab(main, contact_phone, 'instance');
CREATE VIRTUAL TABLE temp.gram_entries USING fts5vocab(main, contact_phone_gram, 'instance');
CREATE VIRTUAL TABLE temp.word_gram_entries USING fts5vocab(main, contact_word_gram, 'row');
.print contact
SELECT $columns FROM contact ORDER BY id;
.print contact_count
SELECT * FROM contact_count;
.print contact_anchor
SELECT * FROM contact_anchor ORDER BY 1, 2, 3;
.print contact_key
SELECT rowid, * FROM contact_key ORDER BY rowid;
.print contact_word
SELECT * FROM contact_word ORDER BY word;
.print contact_word_gram
SELECT word FROM contact_word_gram ORDER BY word;
SELECT * FROM word_gram_entries ORDER BY 1;
.print contact_text
SELECT rowid, text FROM contact_text ORDER BY rowid;
SELECT * FROM text_entries ORDER BY 1, 2, 3, 4;
.print contact_phone
SELECT rowid, digits FROM contact_phone ORDER BY rowid;
SELECT * FROM phone_entries ORDER BY 1, 2, 3, 4;
.print contact_phone_gram
SELECT * FROM gram_entries ORDER BY 1, 2, 3, 4;
.print change_set
SELECT id, seq, origin, kind, summary, undone, added_first, added_last FROM change_set ORDER BY id;
.print change_entry
SELECT change_set, contact_id, uid, before IS NULL, after IS NULL FROM change_entry ORDER BY 1, 2;
SELECT e.change_set, e.contact_id, 'before', t.fullkey, t.atom FROM change_entry e, json_tree(e.before) t
  WHERE t.atom IS NOT NULL AND t.key NOT IN ('createdAt', 'updatedAt') ORDER BY 1, 2, 4;
SELECT e.change_set, e.contact_id, 'after', t.fullkey, t.atom FROM change_entry e, json_tree(e.after) t
  WHERE t.atom IS NOT NULL AND t.key NOT IN ('createdAt', 'updatedAt') ORDER BY 1, 2, 4;
.print sqlite_sequence
SELECT * FROM sqlite_sequence ORDER BY name;
SQL
}
dump "$1" one >"$W/one.txt"
dump "$2" two >"$W/two.txt"
if cmp -s "$W/one.txt" "$W/two.txt"; then
    echo "same rows ($(wc -l <"$W/one.txt") lines: $W/one.txt, $W/two.txt)"
else
    echo "different rows: diff $W/one.txt $W/two.txt" >&2
    diff "$W/one.txt" "$W/two.txt" | head -20 >&2
    exit 1
fi
