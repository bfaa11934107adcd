#!/bin/bash
# Interleaved rounds of SQLite's floor and imports of the same cards by several binaries, for the
# medians of wall and CPU time (issue 32, branch `import5`). Each round: the "floor" copy of
# `bench/import-floor.sh` (SQLite alone writing the rows an import writes, same SQL, one sqlite3
# process), then each BIN importing CARDS into a new book, in turn, each under /usr/bin/time.
#
#   bench/import-rounds.sh ROUNDS CARDS BOOK BIN...
#
# BOOK is a book imported from CARDS (the floor copies its rows). Run `bench/import-floor.sh BIN
# BOOK 1` once first: it makes $TMPDIR/import-floor/source.db and empty.db, which this reuses.
# Prints one line per run (label, wall, user + sys, peak RSS), then the medians and their ratios
# to the floor's.
set -eu
[ $# -ge 4 ] || { echo "usage: bench/import-rounds.sh ROUNDS CARDS BOOK BIN..." >&2; exit 64; }
ROUNDS=$1; CARDS=$2; BOOK=$3; shift 3
W=${TMPDIR:-/tmp}/import-floor
[ -f "$W/source.db" ] && [ -f "$W/empty.db" ] || { echo "run bench/import-floor.sh BIN $BOOK 1 first" >&2; exit 1; }
R=${TMPDIR:-/tmp}/import-rounds
mkdir -p "$R"
: >"$R/runs.txt"
floor() {
    rm -f "$W"/floor.db*
    cp "$W/empty.db" "$W/floor.db"
    /usr/bin/time -f "%e %U %S %M" -o "$R/time.txt" sqlite3 "$W/floor.db" <<SQL
PRAGMA cache_size = -65536;
ATTACH '$W/source.db' AS src;
BEGIN;
INSERT INTO contact SELECT * FROM src.contact WHERE 1;
UPDATE contact_count SET n = (SELECT count(*) FROM contact);
INSERT INTO contact_text(rowid, text) SELECT rowid, text FROM src.contact_text;
INSERT INTO contact_phone(rowid, digits) SELECT rowid, digits FROM src.contact_phone;
INSERT INTO contact_phone_gram(rowid, grams) SELECT id, grams FROM src.gram_text;
DROP INDEX contact_key_by_key; DROP INDEX contact_key_id;
INSERT INTO contact_key(kind, key, id) SELECT kind, key, id FROM src.contact_key ORDER BY rowid;
CREATE INDEX contact_key_by_key ON contact_key(key, kind, id);
CREATE INDEX contact_key_id ON contact_key(id);
INSERT INTO contact_word(word, starts) SELECT word, starts FROM src.contact_word;
INSERT INTO contact_word_gram(word) SELECT word FROM src.contact_word;
COMMIT;
SQL
    record floor
}
record() {
    read -r wall user sys rss <"$R/time.txt"
    printf "%-10s %6.2f %6.2f %7d\n" "$1" "$wall" "$(echo "$user + $sys" | bc)" "$rss" | tee -a "$R/runs.txt"
}
for round in $(seq 1 "$ROUNDS"); do
    echo "round $round, load $(cut -d' ' -f1 /proc/loadavg)"
    floor
    n=0
    for bin in "$@"; do
        n=$((n + 1))
        rm -f "$R"/import.db*
        /usr/bin/time -f "%e %U %S %M" -o "$R/time.txt" "$bin" --db "$R/import.db" --create <<<"import $CARDS" >"$R/out.txt" 2>&1
        grep -q " added" "$R/out.txt" || { echo "import by $bin failed:" >&2; cat "$R/out.txt" >&2; exit 1; }
        record "bin$n"
    done
done
echo "medians (wall, CPU s) and ratios to the floor's:"
awk '{ w[$1] = w[$1] " " $2; c[$1] = c[$1] " " $3; r[$1] = r[$1] " " $4 }
    function median(list,   a, k, i, j, t) {
        k = split(list, a, " ")
        for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
    }
    END {
        fw = median(w["floor"]); fc = median(c["floor"])
        for (l in w) printf "%-10s wall %6.2f (%.2fx)  CPU %6.2f (%.2fx)  peak RSS %d kB\n", l, median(w[l]), median(w[l]) / fw, median(c[l]), median(c[l]) / fc, median(r[l])
    }' "$R/runs.txt" | sort
