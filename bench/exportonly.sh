#!/bin/bash
# Export timing alone, several binaries interleaved run by run, each exporting its own book (a
# fresh copy each run); /usr/bin/time gives wall, user, sys and peak RSS.
#
#   bench/exportonly.sh RUNS FORMAT LABEL:BIN:BOOK [LABEL:BIN:BOOK ...]
#
# FORMAT is vcard4, vcard3 or csv. Books are those importexport.sh leaves (base-cards-N.db,
# new-cards-N.db). Scratch files go to ${TMPDIR:-/tmp}/exportonly.
set -u
[ $# -ge 3 ] || { echo "usage: bench/exportonly.sh RUNS FORMAT LABEL:BIN:BOOK ..." >&2; exit 64; }
RUNS=$1; FMT=$2; shift 2
W=${TMPDIR:-/tmp}/exportonly; mkdir -p "$W"
for r in $(seq 1 $RUNS); do
  for spec in "$@"; do
    IFS=: read -r label bin book <<< "$spec"
    db=$W/$label.db; o=$W/out-$label-$FMT.vcf; rm -f $db $db-wal $db-shm $o; cp "$book" $db
    [ -e "$book-wal" ] && cp "$book-wal" $db-wal
    t=$( { printf "export %s %s\n" $o $FMT | /usr/bin/time -f "%e %U %S %M" "$bin" --db $db >/dev/null; } 2>&1 | tail -1)
    echo "export own-books $FMT $label run$r wall/user/sys/maxrssKB: $t (out $(stat -c %s $o) bytes)"
  done
done
