#!/bin/bash
# What SQLite alone needs to write the rows issues 17 and 19 added to an import, measured in the
# sqlite3 shell: the floor under the import's added CPU, whatever the product does around it.
#
#   bench/feature-floor.sh OLDBOOK NEWBOOK
#
# OLDBOOK: a book the previous binary (cb9a0b7) imported; NEWBOOK: the same cards imported by
# this one. Each part copies the rows NEWBOOK holds (or, for the word index, both books' texts)
# with INSERT … SELECT into empty tables made as the schema makes them, in one transaction,
# under `valgrind --tool=callgrind` (instructions of the whole shell, less a shell that only
# attaches the books) when valgrind is installed, else `/usr/bin/time` (user+sys):
#   keys        issue 17's duplicate index: the contact_key rows, then its two indexes built
#               after them, as an import into an empty book does;
#   words       issue 19's word list: contact_word rows (word, starts) and their trigram index;
#   text-old    the word index (FTS5 unicode61) of OLDBOOK's texts: names, organisation, emails;
#   text-new    the same of NEWBOOK's texts, which add tags, notes and addresses.
set -eu
[ $# -eq 2 ] || { echo "usage: bench/feature-floor.sh OLDBOOK NEWBOOK" >&2; exit 64; }
OLD=$1; NEW=$2
W=${TMPDIR:-/tmp}/feature-floor
mkdir -p "$W"

measure() { # $1: label, $2: SQL
    rm -f "$W"/floor.db*
    local sql="PRAGMA cache_size = -65536;
ATTACH '$OLD' AS old;
ATTACH '$NEW' AS new;
BEGIN;
$2
COMMIT;"
    if command -v valgrind >/dev/null; then
        local n
        n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null sqlite3 "$W/floor.db" "$sql" 2>&1 \
            | awk '/refs:/ { gsub(",", "", $NF); print $NF }')
        printf '%-9s %8.0fM instructions\n' "$1" "$(echo "($n - $BASE) / 1000000" | bc -l)"
    else
        /usr/bin/time -f "$1 %U user %S sys" sqlite3 "$W/floor.db" "$sql"
    fi
}

BASE=0
if command -v valgrind >/dev/null; then
    rm -f "$W"/floor.db*
    BASE=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null sqlite3 "$W/floor.db" \
        "ATTACH '$OLD' AS old; ATTACH '$NEW' AS new; BEGIN; SELECT 1; COMMIT;" 2>&1 \
        | awk '/refs:/ { gsub(",", "", $NF); print $NF }')
fi
echo "rows: $(sqlite3 "$NEW" "SELECT count(*) FROM contact") contacts, $(sqlite3 "$NEW" "SELECT count(*) FROM contact_key") keys, $(sqlite3 "$NEW" "SELECT count(*) FROM contact_word") words"
measure keys "CREATE TABLE contact_key (kind TEXT NOT NULL, key TEXT NOT NULL, id INTEGER NOT NULL);
INSERT INTO contact_key SELECT kind, key, id FROM new.contact_key ORDER BY rowid;
$(sqlite3 "$NEW" "SELECT sql || ';' FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contact_key' ORDER BY name")"
measure words "CREATE TABLE contact_word (word TEXT PRIMARY KEY, starts INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
CREATE VIRTUAL TABLE contact_word_gram USING fts5(word, tokenize = 'trigram');
INSERT INTO contact_word SELECT word, starts FROM new.contact_word;
INSERT INTO contact_word_gram(word) SELECT word FROM new.contact_word;"
for which in old new; do
    measure "text-$which" "CREATE VIRTUAL TABLE contact_text USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO contact_text(rowid, text) SELECT rowid, text FROM $which.contact_text;"
done
