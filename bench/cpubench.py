#!/usr/bin/env python3
# CPU milliseconds (user+sys) per command in a running line session: sessions with 1 and with N
# commands, 3 of each, the least CPU of each kept; (many - one) / (N - 1). CPU time, not wall
# time: the host is shared (load ~14 on 2 cores) and wall time read negative differences.
#   bench/cpubench.py BIN BOOK SETUP COMMAND [N]
# SETUP is a command run first ("sort last", "list", or "" for none); run two binaries
# interleaved, each on its own copy of the book, several rounds (bench/FINDINGS.md, seventh round).
import resource, subprocess, sys
binary, book, setup, command = sys.argv[1:5]
n = int(sys.argv[5]) if len(sys.argv) > 5 else 8
def session(k):
    text = (setup + "\n" if setup else "") + (command + "\n") * k
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([binary, "--db", book], input=text.encode(), stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
one = min(session(1) for _ in range(3)); many = min(session(n) for _ in range(3))
print("%.1f" % ((many - one) / (n - 1) * 1000))
