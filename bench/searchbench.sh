#!/bin/bash
# Milliseconds per search of one query in a running line session, for comparing two binaries
# side by side (run them interleaved, several times: the host is shared and noisy).
#
#   bench/searchbench.sh BIN BOOK SETUP QUERY [N]
#
# SETUP is a command run first ("sort last", or "" for none). Each of two sessions is run
# three times and the fastest kept: one with a single `search QUERY`, one with N (default 6);
# their difference over N-1 is the time of one search, without start-up and the first search's
# cold cache.
set -eu
[ $# -ge 4 ] || { echo "usage: bench/searchbench.sh BIN BOOK SETUP QUERY [N]" >&2; exit 64; }
python3 - "$1" "$2" "$3" "$4" "${5:-6}" <<'PY'
import subprocess, sys, time
binary, book, setup, query, n = sys.argv[1:]
n = int(n)
def session(searches):
    text = (setup + "\n" if setup else "") + ("search %s\n" % query) * searches
    started = time.perf_counter()
    subprocess.run([binary, "--db", book], input=text.encode(), stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started
one = min(session(1) for _ in range(3))
many = min(session(n) for _ in range(3))
print("%.2f ms/search" % ((many - one) / (n - 1) * 1000))
PY
