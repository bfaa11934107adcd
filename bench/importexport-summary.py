#!/usr/bin/env python3
"""Medians (wall, user+sys CPU, peak RSS) and ratios to `base` from importexport.sh and
exportonly.sh output lines: `bench/importexport-summary.py results.txt ...`."""
import re, sys, statistics as st, collections
rows = collections.defaultdict(list); books = {}; outs = {}
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r"(import|export) (\S+)(?: (vcard\d))? (\w+) run\d+ wall/user/sys/maxrssKB: ([\d.]+) ([\d.]+) ([\d.]+) (\d+)(?: \(out (\d+) bytes\))?", line)
        if m:
            op, data, fmt, which, w, u, s, rss, out = m.groups()
            key = (op, data, fmt or "")
            rows[key + (which,)].append((float(w), float(u) + float(s), int(rss)))
            if out: outs[key + (which,)] = int(out)
        m = re.match(r"book (\S+) (\w+) run\d+ db/wal/shm bytes: (\d+) (\d+) (\d+)", line)
        if m: books[(m.group(1), m.group(2))] = int(m.group(3)) + int(m.group(4))
keys = sorted({k[:3] for k in rows})
whiches = sorted({k[3] for k in rows})
for k in keys:
    med = {}
    for wh in whiches:
        v = rows.get(k + (wh,))
        if v: med[wh] = (st.median(x[0] for x in v), st.median(x[1] for x in v), st.median(x[2] for x in v), len(v))
    base = med.get("base")
    s = " ".join(k) + ": "
    for wh, (w, c, r, n) in med.items():
        s += "%s wall %.2f cpu %.2f rss %dMB (n=%d)" % (wh, w, c, r // 1024, n)
        if base and wh != "base": s += " [x%.2f wall, x%.2f cpu, x%.2f rss]" % (w / base[0], c / base[1], r / base[2])
        if k + (wh,) in outs: s += " out %d" % outs[k + (wh,)]
        s += "; "
    print(s)
for (d, wh), b in sorted(books.items()): print("book", d, wh, b)
