#!/bin/bash
# SQLite's own cost of writing what an import writes, without the product: every row of an
# imported book, its three FTS5 entries and its indexes, copied with INSERT … SELECT in one
# transaction into an empty book made by the product (same schema, same page cache as an import).
# No parsing, no binding, one statement per table: the floor an import of the same cards cannot
# go below on this machine with this schema.
#
#   bench/import-floor.sh BIN BOOK [RUNS] [CARDS]
#
# BIN is a contactsbook executable (it makes the empty book); BOOK a book it imported, e.g.
# bench/out/db/book-100000.sqlite. The digit-gram index keeps no text, so its text is rebuilt
# from the phone digits (`ContactSearch.digitGramText`: runs of 6 digits at every second digit).
#
# Each run prints the whole copy's time, then each part's share (sqlite3's `.timer`):
#   floor      the product's schema, as an import writes it: the contacts, their three FTS5
#              entries, and (since issue 32) the duplicate keys (`contact_key`, its two indexes
#              built after the rows, as an import into an empty book builds them) and the word
#              list (`contact_word` and its trigram index): every row the import writes but the
#              200 page anchors and the change set's one row;
#   cheapest   the same rows into the cheapest form of each index the searches need: all three
#              FTS5 tables contentless (`content=''`) without their size tables (`columnsize=0`),
#              so SQLite keeps no second copy of any text, and the three sort indexes built once
#              after the rows ("sorts") instead of row by row. Not a schema the product could use
#              on this SQLite (3.40: a contentless table cannot delete a row without its old text;
#              `contentless_delete` came in 3.43), but no schema with these indexes writes less.
# The contact rows are copied with `WHERE 1`: without it SQLite copies an identical table into
# an empty one by its transfer optimisation (records and index entries copied in order, 4x
# cheaper here), which no import of parsed cards can use.
# With CARDS (the vCard file BOOK was imported from) and `perf` installed, each run also imports
# CARDS with BIN into an empty book under `perf record -e task-clock`: the import's wall time and
# the CPU time of its two threads (the reading and the saving one), interleaved with the copies.
set -eu
[ $# -ge 2 ] || { echo "usage: bench/import-floor.sh BIN BOOK [RUNS] [CARDS]" >&2; exit 64; }
BIN=$1; BOOK=$2; RUNS=${3:-3}; CARDS=${4:-}
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
# A binary that knows --create needs it to make a book at a path of its choosing (older ones
# made one at any path).
CREATE=$("$BIN" --help 2>/dev/null | grep -q -- '--create' && echo --create || true)
"$BIN" --db "$W/empty.db" $CREATE </dev/null >/dev/null
# The cheapest forms: the product's book with its three FTS5 tables made again contentless.
cp "$W/empty.db" "$W/cheapest.db"
sqlite3 "$W/cheapest.db" <<'SQL'
DROP TABLE contact_text_vocab;
DROP TABLE contact_text;
DROP TABLE contact_phone;
DROP TABLE contact_phone_gram;
CREATE VIRTUAL TABLE contact_text USING fts5(text, tokenize = 'unicode61 remove_diacritics 2', content = '', columnsize = 0);
CREATE VIRTUAL TABLE contact_phone USING fts5(digits, tokenize = 'trigram', content = '', columnsize = 0);
CREATE VIRTUAL TABLE contact_phone_gram USING fts5(grams, tokenize = 'unicode61', content = '', columnsize = 0);
SQL
n=$(sqlite3 "$W/source.db" "SELECT count(*) FROM contact")

copy() { # $1: label, $2: the empty book to copy into, $3: SQL before the rows, $4: SQL after them
    rm -f "$W"/floor.db*
    cp "$2" "$W/floor.db"
    local out
    out=$( { /usr/bin/time -f "TOTAL %e %U %S" sqlite3 "$W/floor.db" <<SQL
PRAGMA cache_size = -65536;
ATTACH '$W/source.db' AS src;
BEGIN;
.timer on
$3
.print contact
INSERT INTO contact SELECT * FROM src.contact WHERE 1;
UPDATE contact_count SET n = (SELECT count(*) FROM contact);
$4
.print words
INSERT INTO contact_text(rowid, text) SELECT rowid, text FROM src.contact_text;
.print trigrams
INSERT INTO contact_phone(rowid, digits) SELECT rowid, digits FROM src.contact_phone;
.print grams
INSERT INTO contact_phone_gram(rowid, grams) SELECT id, grams FROM src.gram_text;
.print keys
DROP INDEX contact_key_by_key; DROP INDEX contact_key_id;
INSERT INTO contact_key(kind, key, id) SELECT kind, key, id FROM src.contact_key ORDER BY rowid;
CREATE INDEX contact_key_by_key ON contact_key(key, kind, id);
CREATE INDEX contact_key_id ON contact_key(id);
.print wordlist
INSERT INTO contact_word(word, starts) SELECT word, starts FROM src.contact_word;
INSERT INTO contact_word_gram(word) SELECT word FROM src.contact_word;
.print commit
COMMIT;
SQL
    } 2>&1)
    # sqlite3 prints "Run Time: real R user U sys S" after each statement: sum them per label.
    echo "$out" | awk -v label="$1" -v n="$n" -v run="$run" '
        /^(contact|sorts|words|trigrams|grams|keys|wordlist|commit)$/ { part = $1; order[++k] = part; next }
        /^Run Time:/ { real[part] += $4; cpu[part] += $6 + $8; next }
        /^TOTAL/ { total = sprintf("%s s wall (%s user, %s sys)", $2, $3, $4) }
        END {
            line = sprintf("%-8s %d rows run%d: %s;", label, n, run, total)
            for (i = 1; i <= k; i++) line = line sprintf(" %s %.2f", order[i], real[order[i]])
            print line " s"
        }'
}

for run in $(seq 1 "$RUNS"); do
    copy floor "$W/empty.db" "" ""
    copy cheapest "$W/cheapest.db" \
        "DROP INDEX contact_sort_first; DROP INDEX contact_sort_last; DROP INDEX contact_id_sorts;" \
        ".print sorts
CREATE INDEX contact_sort_first ON contact(sort_first, id);
CREATE INDEX contact_sort_last ON contact(sort_last, id);
CREATE INDEX contact_id_sorts ON contact(id, sort_first, sort_last);"
    if [ -n "$CARDS" ] && command -v perf >/dev/null; then
        rm -f "$W"/import.db*
        # Per-thread CPU: one sample per millisecond of a thread's CPU time (task-clock), counted
        # per thread; the two busiest are the import's reading and saving threads.
        /usr/bin/time -f "%e %U %S" -o "$W/time.txt" perf record -q -e task-clock -c 1000000 -o "$W/perf.data" \
            "$BIN" --db "$W/import.db" $CREATE <<<"import $CARDS" >"$W/import.out" 2>&1
        read -r wall user sys <"$W/time.txt"
        threads=$(perf report -i "$W/perf.data" --sort pid --stdio -F sample,pid 2>/dev/null \
            | awk '$1 ~ /^[0-9]+$/ { printf "%.2f\n", $1 / 1000 }' | sort -rn | head -2 | paste -sd/)
        echo "import   $(grep -o '[0-9]* added' "$W/import.out") run$run: $wall s wall ($user user, $sys sys) under perf; its two busiest threads' CPU $threads s"
    fi
done
