#!/usr/bin/env bash
# Peak RSS of a CSV import by its length (issue 18: "flat memory"), two binaries side by side:
# for each length, RUNS imports into a new book with each binary, interleaved (A, B, A, B...),
# each printed with its peak RSS (MiB, /usr/bin/time's %M) and CPU (user+sys), then the medians.
# The rows are the ones bench/hostile.sh writes (uid,given_name,family_name,emails; all unique).
#
#   bench/rss.sh BIN_A BIN_B [WORKDIR] [ROWS...]    (default rows: 100000 1000000 2000000; RUNS=1)
set -euo pipefail
A="$1" B="$2"; shift 2
WORK="${1:-bench/out/rss}"; shift || true
ROWS=("$@"); [ ${#ROWS[@]} -gt 0 ] || ROWS=(100000 1000000 2000000)
RUNS="${RUNS:-1}"
mkdir -p "$WORK"
for rows in "${ROWS[@]}"; do
    [ -s "$WORK/rows-$rows.csv" ] || python3 - "$WORK/rows-$rows.csv" "$rows" <<'PY'
import sys
with open(sys.argv[1], "w", newline="") as f:
    f.write("uid,given_name,family_name,emails\r\n")
    for i in range(int(sys.argv[2])):
        f.write(f"u{i},Given{i},Family,work:g{i}@example.org\r\n")
PY
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
run() { # BIN ROWS: prints "RSS_MIB CPU_S"
    rm -f "$WORK/book.sqlite"*
    /usr/bin/time -f "%M %U %S" -o "$WORK/time.txt" "$1" import --create --db "$WORK/book.sqlite" "$WORK/rows-$2.csv" \
        >"$WORK/import.out" 2>&1 || { echo "import failed: $(cat "$WORK/import.out")" >&2; exit 1; }
    grep -q "$2 added" "$WORK/import.out" || { echo "unexpected answer: $(cat "$WORK/import.out")" >&2; exit 1; }
    awk '{ printf "%d %.2f\n", $1 / 1024, $2 + $3 }' "$WORK/time.txt"
}
printf '%-10s %-6s %s\n' rows binary "peak RSS MiB / CPU s, each run"
for rows in "${ROWS[@]}"; do
    : >"$WORK/a.txt"; : >"$WORK/b.txt"
    for _ in $(seq "$RUNS"); do
        run "$A" "$rows" >>"$WORK/a.txt"
        run "$B" "$rows" >>"$WORK/b.txt"
    done
    for side in a b; do
        bin=$([ $side = a ] && echo "$A" || echo "$B")
        printf '%-10s %-6s %s | median %s MiB, %s s  (%s)\n' "$rows" "$side" "$(tr '\n' ' ' <"$WORK/$side.txt")" \
            "$(cut -d' ' -f1 "$WORK/$side.txt" | median)" "$(cut -d' ' -f2 "$WORK/$side.txt" | median)" "$bin"
    done
done
rm -f "$WORK/book.sqlite"*
