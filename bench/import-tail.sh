#!/bin/bash
# Where an import's wall goes on two cores: one import of CARDS into a new book under
# `perf record -e task-clock` (one sample per millisecond of a thread's CPU, with its time), then
# the CPU of its two busiest threads: the reading and parsing one, and the saving one (the one
# that ends last), and of the saving thread's, the part after the reading thread's last sample
# (the "tail": the last batch, the set-aside indexes, the commit, with the other core idle).
#
#   bench/import-tail.sh BIN CARDS [LABEL]
#
# Prints wall and CPU (user + sys, every thread, SQLite's sorter helpers too), the load average,
# each thread's CPU, and "model": max(reading, saving while reading) + tail, what the wall comes
# to on two otherwise idle cores. On a loaded host the wall is the others' load; the model is not
# (less so). Interleave it with `bench/import-floor.sh`'s copies (issue 32, branch `import4`).
set -eu
[ $# -ge 2 ] || { echo "usage: bench/import-tail.sh BIN CARDS [LABEL]" >&2; exit 64; }
BIN=$1; CARDS=$2; LABEL=${3:-import}
W=${TMPDIR:-/tmp}/import-tail
mkdir -p "$W"
rm -f "$W"/import.db*
/usr/bin/time -f "%e %U %S" -o "$W/time.txt" perf record -q -e task-clock -c 1000000 -o "$W/perf.data" \
    "$BIN" --db "$W/import.db" --create <<<"import $CARDS" >"$W/out.txt" 2>&1
grep -q " added" "$W/out.txt" || { echo "the import failed:" >&2; cat "$W/out.txt" >&2; exit 1; }
read -r wall user sys <"$W/time.txt"
perf script -i "$W/perf.data" -F tid,time 2>/dev/null | awk -v label="$LABEL" -v wall="$wall" -v u="$user" -v s="$sys" \
    -v load="$(cut -d' ' -f1 /proc/loadavg)" '
    { t = $2; sub(":", "", t); n[$1]++; tid[NR] = $1; at[NR] = t; last[$1] = t }
    END {
        a = ""; b = ""
        for (k in n) { if (a == "" || n[k] > n[a]) { b = a; a = k } else if (b == "" || n[k] > n[b]) b = k }
        if (last[a] > last[b]) { saver = a; reader = b } else { saver = b; reader = a }
        tail = 0
        for (i = 1; i <= NR; i++) if (tid[i] == saver && at[i] > last[reader]) tail++
        during = n[saver] - tail
        model = (n[reader] > during ? n[reader] : during) + tail
        printf "%-8s wall %5.2f cpu %5.2f load %s | reading %.2f saving %.2f (while reading %.2f, tail %.2f) model %.2f s\n",
            label, wall, u + s, load, n[reader] / 1000, n[saver] / 1000, during / 1000, tail / 1000, model / 1000
    }'
