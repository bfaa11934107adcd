#!/usr/bin/env python3
"""The RPC rows of bench/bench.py (echo floor, round trips, pipelined req/s, both framings) for two
binaries, interleaved round by round so both see the same minutes of the host.

    rpc-side-by-side.py BEFORE_BIN AFTER_BIN [ROUNDS] > table.txt
"""
import os, statistics, sys, tempfile, types
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def main():
    bins = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    out = tempfile.mkdtemp(prefix="rpc-side-by-side-")
    rows = {}
    for rnd in range(rounds):
        for name, path in (list(bins.items()) if rnd % 2 == 0 else list(bins.items())[::-1]):
            b = bench.Bench(types.SimpleNamespace(quick=False, bin=path, out=out, sizes=None))
            b.echo_floor_and_rpc()
            for r in b.results["rows"]:
                rows.setdefault((r["what"], name), []).append(r["value"])
    for (what, name), values in sorted(rows.items()):
        shown = [round(v) if "pipelined" in what else round(v * 1e6, 1) for v in values]
        unit = "req/s" if "pipelined" in what else "µs"
        print("%-68s %-6s median %s %s  runs %s" % (what, name, statistics.median(shown), unit, shown))


if __name__ == "__main__":
    main()
