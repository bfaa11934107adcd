#!/usr/bin/env python3
"""Before/after for one product fix: the same per-request latencies, two binaries, same books.

    compare.py BEFORE_BIN AFTER_BIN DB... > table.md
"""
import json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

def measure(binary, db, q, n, repeat=30):
    b = bench.Bench.__new__(bench.Bench)
    b.bin = binary
    cmds = ["search " + q["name"], "search " + q["email"], "search " + q["phone"]]
    t = b.session_latencies(db, cmds, repeat)
    t.update(b.session_latencies(db, ["list", "page 1", "page %d" % max(1, n // 200), "page %d" % ((n + 19) // 20)], repeat))
    return t

def main():
    before, after, dbs = sys.argv[1], sys.argv[2], sys.argv[3:]
    r = bench.subprocess.run([after, "--db", ":memory:"], input="stack\n", capture_output=True, text=True)
    bench.MARKER = r.stdout.encode()
    print("| size | request | before (median) | after (median) | after/before |")
    print("|---|---|---|---|---|")
    for db in dbs:
        n = int(db.rsplit("-", 1)[1].split(".")[0])
        q = json.load(open(os.path.join(os.path.dirname(db), "..", "data", "queries-%d.json" % n)))
        tb, ta = measure(before, db, q, n), measure(after, db, q, n)
        for c in tb:
            if c == "list":
                continue
            mb, ma = statistics.median(tb[c]), statistics.median(ta[c])
            print("| %s | `%s` | %s | %s | %.2f |" % (bench.human(n), c, bench.fmt_ms(mb), bench.fmt_ms(ma), ma / mb), flush=True)

main()
