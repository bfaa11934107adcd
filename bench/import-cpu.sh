#!/bin/bash
# An import's CPU time (user + sys), several binaries interleaved run by run on the same cards,
# each into a new book: on a shared host CPU time moves far less with the load than wall time.
# Prints every run, then per size each binary's median and its ratio to the first binary's.
#
#   bench/import-cpu.sh DATADIR "SIZES" RUNS BIN...
#
# DATADIR holds bench/gen.py's cards-N.vcf. Scratch books go to ${TMPDIR:-/tmp}/import-cpu.
set -eu
[ $# -ge 4 ] || { echo "usage: bench/import-cpu.sh DATADIR \"SIZES\" RUNS BIN..." >&2; exit 64; }
DATA=$1; SIZES=$2; RUNS=$3; shift 3
W=${TMPDIR:-/tmp}/import-cpu
mkdir -p "$W"
: >"$W/runs.txt"
for n in $SIZES; do
    for r in $(seq 1 "$RUNS"); do
        i=0
        for bin in "$@"; do
            i=$((i + 1))
            db=$W/book-$i.db; rm -f "$db" "$db-wal" "$db-shm"
            # A binary that knows --create needs it for a new book (older ones made one at any path).
            create=$("$bin" --help 2>/dev/null | grep -q -- '--create' && echo --create || true)
            t=$( { /usr/bin/time -f "%e %U %S %M" "$bin" import --db "$db" $create "$DATA/cards-$n.vcf" >/dev/null; } 2>&1 | tail -1)
            echo "$n $i $r $t" | tee -a "$W/runs.txt" | awk '{ printf "%s cards, binary %s, run %s: wall %s s, user %s s, sys %s s, peak RSS %s KB\n", $1, $2, $3, $4, $5, $6, $7 }'
        done
    done
done
python3 - "$W/runs.txt" "$@" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
bins = sys.argv[2:]
for n in dict.fromkeys(r[0] for r in rows):
    cpu = {i: [float(r[4]) + float(r[5]) for r in rows if r[0] == n and int(r[1]) == i] for i in range(1, len(bins) + 1)}
    first = statistics.median(cpu[1])
    for i, b in enumerate(bins, 1):
        m = statistics.median(cpu[i])
        print("%s cards  %-60s CPU median %6.2f s of %s  ratio %.2f" % (n, b, m, " / ".join("%.2f" % c for c in cpu[i]), m / first))
PY
