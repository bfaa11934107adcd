#!/bin/bash
# Side-by-side import/export timing, whole process: one binary against another, interleaved
# run by run; /usr/bin/time gives wall, user, sys and peak RSS. Both export the book the first
# binary loaded, and the two exported files are compared byte for byte (cmp).
#
#   bench/importexport.sh BASEBIN NEWBIN DATADIR ["10000 100000"] [RUNS]
#
# DATADIR holds bench/gen.py's cards-N.vcf (bench/run leaves them in bench/out/data). Scratch
# files go to ${TMPDIR:-/tmp}/importexport; results are appended to results.txt there.
set -u
[ $# -ge 3 ] || { echo "usage: bench/importexport.sh BASEBIN NEWBIN DATADIR [SIZES] [RUNS]" >&2; exit 64; }
BASE=$1; NEW=$2; DATA=$3; SIZES=${4:-"10000 100000"}; RUNS=${5:-3}
W=${TMPDIR:-/tmp}/importexport
mkdir -p "$W"
OUT=$W/results.txt
for n in $SIZES; do
  for r in $(seq 1 $RUNS); do
    for which in base new; do
      bin=$BASE; [ $which = new ] && bin=$NEW
      db=$W/$which-$n.db; rm -f $db $db-wal $db-shm
      # A binary that knows --create needs it for a new book (older ones made one at any path).
      create=$($bin --help 2>/dev/null | grep -q -- '--create' && echo --create || true)
      t=$( { /usr/bin/time -f "%e %U %S %M" $bin import --db $db $create $DATA/cards-$n.vcf >/dev/null; } 2>&1 | tail -1)
      echo "import $n $which run$r wall/user/sys/maxrssKB: $t" | tee -a $OUT
    done
    for which in base new; do
      bin=$BASE; [ $which = new ] && bin=$NEW
      # Both export the book the baseline loaded (a copy each time).
      src=$W/base-$n.db; db=$W/exp-$which-$n.db
      rm -f $db $db-wal $db-shm $W/out-$which-$n.vcf; cp $src $db
      t=$( { printf "export $W/out-%s-%s.vcf\n" $which $n | /usr/bin/time -f "%e %U %S %M" $bin --db $db >/dev/null; } 2>&1 | tail -1)
      echo "export $n $which run$r wall/user/sys/maxrssKB: $t" | tee -a $OUT
    done
    cmp $W/out-base-$n.vcf $W/out-new-$n.vcf && echo "export $n run$r: identical bytes ($(stat -c %s $W/out-new-$n.vcf) bytes)" | tee -a $OUT
  done
done
