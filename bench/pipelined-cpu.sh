#!/bin/bash
# bench/pipelined-cpu.sh ROUNDS NAME=BIN... : bench/bench.py's pipelined `session/stack` (initialize,
# then 200,000 requests, NDJSON and Content-Length, from a file to `--rpc --db :memory:`) run by each
# binary in turn, order reversed every other round, for a shared host: CPU (user + sys, /usr/bin/time)
# and wall per run, their medians, and each answer file compared (`cmp`) with the first binary's.
# Example: bench/pipelined-cpu.sh 9 base=/tmp/cb-main new=.build/release/contactsbook
set -euo pipefail
rounds=$1; shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/pipelined-cpu-XXXXXX")
python3 - "$dir" <<'PY'
import sys
req = '{"jsonrpc":"2.0","id":%d,"method":"session/stack"}'
init = b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}'
cl = lambda body: b"Content-Length: %d\r\n\r\n" % len(body) + body
m = 200000
open(sys.argv[1] + "/nd.txt", "wb").write(init + b"\n" + b"".join((req % i + "\n").encode() for i in range(1, m + 1)))
open(sys.argv[1] + "/cl.txt", "wb").write(cl(init) + b"".join(cl((req % i).encode()) for i in range(1, m + 1)))
PY
declare -A cpu wall
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order=("$@"); else order=(); for ((i=$#; i>0; i--)); do order+=("${!i}"); done; fi
  for nb in "${order[@]}"; do
    name=${nb%%=*}; bin=${nb#*=}
    for f in nd cl; do
      t=$( { /usr/bin/time -f "%U %S %e" "$bin" --rpc --db :memory: < "$dir/$f.txt" > "$dir/out-$name-$f.txt"; } 2>&1 | tail -1)
      cpu[$name-$f]+="$(echo "$t" | awk '{printf "%.2f", $1+$2}') "
      wall[$name-$f]+="$(echo "$t" | awk '{print $3}') "
    done
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
first=${1%%=*}
for nb in "$@"; do
  name=${nb%%=*}
  for f in nd cl; do
    same=$(cmp -s "$dir/out-$first-$f.txt" "$dir/out-$name-$f.txt" && echo identical || echo DIFFERENT)
    echo "$name $f CPU median $(echo "${cpu[$name-$f]}" | median) s (runs ${cpu[$name-$f]}), wall median $(echo "${wall[$name-$f]}" | median) s (runs ${wall[$name-$f]}), answers $same to $first's"
  done
done
rm -rf "$dir"
