#!/bin/bash
# Side-by-side import/export timing, whole process: one binary against another, interleaved
# run by run; /usr/bin/time gives wall, user, sys and peak RSS. Both export the book the first
# binary loaded, and the two exported files are compared byte for byte (cmp).
#
#   bench/importexport.sh BASEBIN NEWBIN DATADIR ["10000 100000"] [RUNS]
#
# DATADIR holds bench/gen.py's cards-N.vcf (bench/run leaves them in bench/out/data). Scratch
# files go to ${TMPDIR:-/tmp}/importexport; results are appended to results.txt there.
#
# Environment (all optional):
#   OWN=1          each binary exports the book it imported itself (a book with cards, for a
#                  build that keeps them) instead of the baseline's; the exports then differ, so
#                  they are compared card by card (bench/compare-exports.py) once, after the runs.
#   PREFIX=cards30 read DATADIR/PREFIX-N.vcf (bench/gen30.py's 3.0 cards) instead of cards-N.vcf.
#   FORMATS="vcard4 vcard3"  export once in each of these formats per run (default vcard4).
# After each import the book's size on disk is logged (the sqlite file, its -wal and -shm).
set -u
[ $# -ge 3 ] || { echo "usage: bench/importexport.sh BASEBIN NEWBIN DATADIR [SIZES] [RUNS]" >&2; exit 64; }
BASE=$1; NEW=$2; DATA=$3; SIZES=${4:-"10000 100000"}; RUNS=${5:-3}
OWN=${OWN:-0}; PREFIX=${PREFIX:-cards}; FORMATS=${FORMATS:-vcard4}
HERE=$(cd "$(dirname "$0")" && pwd)
W=${TMPDIR:-/tmp}/importexport
mkdir -p "$W"
OUT=$W/results.txt
size() { [ -e "$1" ] && stat -c %s "$1" || echo 0; }
for n in $SIZES; do
  for r in $(seq 1 $RUNS); do
    for which in base new; do
      bin=$BASE; [ $which = new ] && bin=$NEW
      db=$W/$which-$PREFIX-$n.db; rm -f $db $db-wal $db-shm
      # A binary that knows --create needs it for a new book (older ones made one at any path).
      create=$($bin --help 2>/dev/null | grep -q -- '--create' && echo --create || true)
      t=$( { /usr/bin/time -f "%e %U %S %M" $bin import --db $db $create $DATA/$PREFIX-$n.vcf >/dev/null; } 2>&1 | tail -1)
      echo "import $PREFIX-$n $which run$r wall/user/sys/maxrssKB: $t" | tee -a $OUT
      echo "book $PREFIX-$n $which run$r db/wal/shm bytes: $(size $db) $(size $db-wal) $(size $db-shm)" | tee -a $OUT
    done
    for fmt in $FORMATS; do
      for which in base new; do
        bin=$BASE; [ $which = new ] && bin=$NEW
        # The book the baseline loaded, or with OWN=1 the binary's own (a copy each time).
        src=$W/base-$PREFIX-$n.db; [ "$OWN" = 1 ] && src=$W/$which-$PREFIX-$n.db
        db=$W/exp-$which-$n.db; o=$W/out-$which-$PREFIX-$n-$fmt.vcf
        rm -f $db $db-wal $db-shm $o; cp $src $db
        [ -e $src-wal ] && cp $src-wal $db-wal
        t=$( { printf "export %s %s\n" $o $fmt | /usr/bin/time -f "%e %U %S %M" $bin --db $db >/dev/null; } 2>&1 | tail -1)
        echo "export $PREFIX-$n $fmt $which run$r wall/user/sys/maxrssKB: $t (out $(size $o) bytes)" | tee -a $OUT
      done
      if [ "$OWN" != 1 ]; then
        cmp $W/out-base-$PREFIX-$n-$fmt.vcf $W/out-new-$PREFIX-$n-$fmt.vcf && echo "export $PREFIX-$n $fmt run$r: identical bytes ($(size $W/out-new-$PREFIX-$n-$fmt.vcf) bytes)" | tee -a $OUT
      fi
    done
  done
  if [ "$OWN" = 1 ]; then
    for fmt in $FORMATS; do
      python3 "$HERE/compare-exports.py" $W/out-base-$PREFIX-$n-$fmt.vcf $W/out-new-$PREFIX-$n-$fmt.vcf | sed "s/^/compare $PREFIX-$n $fmt: /" | tee -a $OUT
    done
  fi
done
