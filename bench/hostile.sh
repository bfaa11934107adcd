#!/usr/bin/env bash
# Hostile sizes (issue 18): feeds the executable a card with a 50 MB photo, a 20 MB command line,
# a CSV of a million rows and a JSON-RPC batch of 100,000 requests, and reports for each the exit
# status, the first line of its answer, the bytes it wrote and its peak RSS (/usr/bin/time -v).
#
#   bench/hostile.sh [BIN] [WORKDIR]    (BIN defaults to .build/release/contactsbook)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-.build/release/contactsbook}"
WORK="${2:-bench/out/hostile}"
mkdir -p "$WORK"
python3 - "$WORK" <<'PY'
import base64, os, sys
work = sys.argv[1]
def folded(line):
    return "\r\n ".join(line[i:i + 74] for i in range(0, len(line), 74)) + "\r\n"
photo = base64.b64encode(os.urandom(50 * 1024 * 1024 * 3 // 4)).decode()
with open(f"{work}/photo.vcf", "w", newline="") as f:
    f.write("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Big Photo\r\nN:Photo;Big;;;\r\n")
    f.write(folded("PHOTO:data:image/jpeg;base64," + photo))
    f.write("END:VCARD\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nFN:Small One\r\nN:One;Small;;;\r\nEND:VCARD\r\n")
with open(f"{work}/line.txt", "w") as f:
    f.write("search " + "a" * (20 * 1024 * 1024) + "\n")
with open(f"{work}/million.csv", "w", newline="") as f:
    f.write("uid,given_name,family_name,emails\r\n")
    for i in range(1_000_000):
        f.write(f"u{i},Given{i},Family,work:g{i}@example.org\r\n")
with open(f"{work}/batch.json", "w") as f:
    f.write("[" + ",".join('{"jsonrpc":"2.0","id":%d,"method":"contacts/next"}' % i for i in range(100_000)) + "]\n")
PY
run() {
    local name="$1"; shift
    local out="$WORK/$name.out" err="$WORK/$name.err" times="$WORK/$name.time"
    rm -f "$WORK/$name.sqlite"*
    local status=0
    /usr/bin/time -v -o "$times" "$@" >"$out" 2>"$err" || status=$?
    local rss wall
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$times")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$times")
    printf '%-8s exit %-3s peak RSS %6s MB  wall %-8s stdout %10s B  first line: %.150s\n' "$name" "$status" \
        "$((rss / 1024))" "$wall" "$(wc -c <"$out")" "$(cat "$out" "$err" | head -c 2000 | grep -v '^$' | head -1)"
}
run photo "$BIN" import --create --db "$WORK/photo.sqlite" "$WORK/photo.vcf"
run line sh -c "\"\$0\" --create --db \"\$1\" < \"\$2\"" "$BIN" "$WORK/line.sqlite" "$WORK/line.txt"
run csv "$BIN" import --create --db "$WORK/csv.sqlite" "$WORK/million.csv"
run batch sh -c "\"\$0\" --rpc --create --db \"\$1\" < \"\$2\"" "$BIN" "$WORK/batch.sqlite" "$WORK/batch.json"
