#!/bin/bash
# SQLite's own cost of writing what an import writes, without the product: every row of an
# imported book, its three FTS5 entries and its indexes, copied with INSERT … SELECT in one
# transaction into an empty book made by the product (same schema, same page cache as an import).
# No parsing, no binding, one statement per table: the floor an import of the same cards cannot
# go below on this machine with this schema.
#
#   bench/import-floor.sh BIN BOOK [RUNS]
#
# BIN is a contactsbook executable (it makes the empty book); BOOK a book it imported, e.g.
# bench/out/db/book-100000.sqlite. The digit-gram index keeps no text, so its text is rebuilt
# from the phone digits (`ContactSearch.digitGramText`: runs of 6 digits at every second digit).
set -eu
[ $# -ge 2 ] || { echo "usage: bench/import-floor.sh BIN BOOK [RUNS]" >&2; exit 64; }
BIN=$1; BOOK=$2; RUNS=${3:-3}
W=${TMPDIR:-/tmp}/import-floor
mkdir -p "$W"
rm -f "$W"/*.db*
cp "$BOOK" "$W/source.db"
python3 - "$W/source.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE gram_text(id INTEGER PRIMARY KEY, grams TEXT)")
rows = []
for rowid, digits in db.execute("SELECT rowid, digits FROM contact_phone"):
    grams = [d[i:i + 6] for d in digits.split(" ") if len(d) >= 6 for i in range(0, len(d) - 5, 2)]
    if grams:
        rows.append((rowid, " ".join(grams)))
db.executemany("INSERT INTO gram_text VALUES (?, ?)", rows)
db.commit()
PY
"$BIN" --db "$W/empty.db" </dev/null >/dev/null
n=$(sqlite3 "$W/source.db" "SELECT count(*) FROM contact")
for r in $(seq 1 "$RUNS"); do
    rm -f "$W"/floor.db*
    cp "$W/empty.db" "$W/floor.db"
    t=$( { /usr/bin/time -f "%e %U %S" sqlite3 "$W/floor.db" <<SQL
PRAGMA cache_size = -65536;
ATTACH '$W/source.db' AS src;
BEGIN;
INSERT INTO contact SELECT * FROM src.contact;
UPDATE contact_count SET n = (SELECT count(*) FROM contact);
INSERT INTO contact_text(rowid, text) SELECT rowid, text FROM src.contact_text;
INSERT INTO contact_phone(rowid, digits) SELECT rowid, digits FROM src.contact_phone;
INSERT INTO contact_phone_gram(rowid, grams) SELECT id, grams FROM src.gram_text;
COMMIT;
SQL
    } 2>&1 | tail -1)
    echo "floor $n rows run$r wall/user/sys: $t"
done
