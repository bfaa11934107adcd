#!/usr/bin/env bash
# bench/compare-outputs.sh OLD NEW BOOK: runs the same one-shot commands (query with many kinds of
# text, help, --api-info, a piped session, an --rpc exchange) with two binaries and compares
# stdout, stderr and exit status byte for byte. BOOK should be a copy (at the current schema:
# the `query` reading path does not migrate) and is only read. Exits 1 if anything differs.
set -u
[ $# = 3 ] || { echo "usage: bench/compare-outputs.sh OLD NEW BOOK" >&2; exit 64; }
B=$1; A=$2; DB=$3; fail=0; n=0
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
run() { # label, args...
  local label=$1; shift
  "$B" "$@" >$T/b.out 2>$T/b.err </dev/null; local bs=$?
  "$A" "$@" >$T/a.out 2>$T/a.err </dev/null; local as=$?
  n=$((n+1))
  if cmp -s $T/b.out $T/a.out && cmp -s $T/b.err $T/a.err && [ $bs = $as ]; then :; else echo "DIFF: $label (status $bs vs $as)"; fail=1; fi
}
runin() { # label, stdin-text, args...
  local label=$1 input=$2; shift 2
  printf '%s' "$input" | "$B" "$@" >$T/b.out 2>$T/b.err; local bs=$?
  printf '%s' "$input" | "$A" "$@" >$T/a.out 2>$T/a.err; local as=$?
  n=$((n+1))
  if cmp -s $T/b.out $T/a.out && cmp -s $T/b.err $T/a.err && [ $bs = $as ]; then :; else echo "DIFF: $label (status $bs vs $as)"; diff <(head -c 2000 $T/b.out) <(head -c 2000 $T/a.out) | head -5; fail=1; fi
}
run help --help
run help-h -h
run query-help query --help
run import-help import --help
run api-info --api-info
run bad-option --nope
run query-noargs query
run query-badopt query --frobnicate x
for q in priyankapark692 brown kowal "Priyanka 박" 박 "olga.brown636" nobody-at-all "  brown  " $'\t' "" " " $'\u200b' $'\u200bbrown\u200b' $'brown\u200b' '"quoted"' 'a"b' 'AND' 'NEAR(x y)' '*' '-' 'ñúñez' 'NUNEZ' '+1 555' '555' '9246378' 'example.com' 'ÅSA' $'bro\x01wn' 'e' 'a b c' 'work' 'Acme' '@' 'ü'; do
  run "query [$q]" query --db "$DB" "$q"
  run "query -- [$q]" query --db="$DB" -- "$q"
done
run query-multi query --db "$DB" brown agnes
run query-missing-db query --db "$T/missing/book.sqlite" brown
runin piped-list "list
search Kowal
page 2
show 1
stack
help
" --db "$DB"
runin piped-bad "frobnicate
search
" --db "$DB"
runin rpc-init '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
{"jsonrpc":"2.0","id":2,"method":"session/stack","params":{}}
{"jsonrpc":"2.0","id":3,"method":"contacts/search","params":{"text":"brown"}}
' --rpc --db "$DB"
echo "$n comparisons, $([ $fail = 0 ] && echo "all identical" || echo "some differ")"
exit $fail
