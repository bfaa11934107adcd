#!/bin/bash
# Side-by-side import/export timing, whole process: the baseline binary vs another, interleaved
# run by run; /usr/bin/time gives wall, user, sys and peak RSS. Both export the book the baseline
# loaded, and the two exported files are compared byte for byte (cmp).
# usage: bench/importexport.sh NEWBIN ["10000 100000"] [RUNS]   (scratch files in /tmp/lfbench)
mkdir -p /tmp/lfbench
NEW=$1; SIZES=${2:-"10000 100000"}; RUNS=${3:-3}
BASE=/work/benchdata/contactsbook-baseline
OUT=/tmp/lfbench/results.txt
for n in $SIZES; do
  for r in $(seq 1 $RUNS); do
    for which in base new; do
      bin=$BASE; [ $which = new ] && bin=$NEW
      db=/tmp/lfbench/$which-$n.db; rm -f $db $db-wal $db-shm
      t=$( { /usr/bin/time -f "%e %U %S %M" $bin import --db $db /work/benchdata/cards-$n.vcf >/dev/null; } 2>&1 | tail -1)
      echo "import $n $which run$r wall/user/sys/maxrssKB: $t" | tee -a $OUT
    done
    for which in base new; do
      bin=$BASE; [ $which = new ] && bin=$NEW
      # Both export the book the baseline loaded (a copy each time).
      src=/tmp/lfbench/base-$n.db; db=/tmp/lfbench/exp-$which-$n.db
      rm -f $db $db-wal $db-shm /tmp/lfbench/out-$which-$n.vcf; cp $src $db
      t=$( { printf 'export /tmp/lfbench/out-%s-%s.vcf\n' $which $n | /usr/bin/time -f "%e %U %S %M" $bin --db $db >/dev/null; } 2>&1 | tail -1)
      echo "export $n $which run$r wall/user/sys/maxrssKB: $t" | tee -a $OUT
    done
    cmp /tmp/lfbench/out-base-$n.vcf /tmp/lfbench/out-new-$n.vcf && echo "export $n run$r: identical bytes ($(stat -c %s /tmp/lfbench/out-new-$n.vcf) bytes)" | tee -a $OUT
  done
done
