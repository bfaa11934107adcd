#!/usr/bin/env python3
"""The change journal's cost (issue 14): two binaries side by side, interleaved, on the same cards.

    bench/journal.py BEFORE_BIN AFTER_BIN [N] [ROUNDS] > table.md

For each round and each binary, in turn: `import` of N generated cards into a new book (wall time),
the book's size after it, then 50 saves (`add`, two fields, `save`) in one line session on that
book, each timed until its answer (bench.py's session_latencies), and the size after them.
Prints medians over the rounds and the ratios after/before.
"""
import os, shutil, statistics, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "out", "journal")
SAVE = "add\ngiven Sam\nfamily Saver\nsave"


def size(db):
    return sum(os.path.getsize(db + s) for s in ("", "-wal") if os.path.exists(db + s))


def one_round(binary, name, cards):
    db = os.path.join(OUT, f"{name}.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    t = time.perf_counter()
    subprocess.run([binary, "--db", db, "import", cards], check=True, capture_output=True)
    seconds = time.perf_counter() - t
    imported = size(db)
    b = bench.Bench.__new__(bench.Bench)
    b.bin = binary
    saves = b.session_latencies(db, [SAVE], 50)[SAVE]
    return seconds, imported, statistics.median(saves), size(db)


def main():
    before, after = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    os.makedirs(OUT, exist_ok=True)
    cards = os.path.join(OUT, f"cards-{n}.vcf")
    if not os.path.exists(cards):
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), str(n), OUT], check=True, capture_output=True)
    r = subprocess.run([after, "--db", ":memory:"], input="stack\n", capture_output=True, text=True)
    bench.MARKER = r.stdout.encode()
    results = {"before": [], "after": []}
    for i in range(rounds):
        for label, binary in (("before", before), ("after", after)):
            results[label].append(one_round(binary, label, cards))
            s, size_import, save, size_saves = results[label][-1]
            print(f"<!-- round {i + 1} {label}: import {s:.2f} s, {size_import} B, save {save * 1000:.2f} ms, {size_saves} B -->",
                  flush=True)
    med = {k: [statistics.median(x[j] for x in v) for j in range(4)] for k, v in results.items()}
    b, a = med["before"], med["after"]
    print(f"| {n:,} cards, {rounds} rounds interleaved | before (median) | after (median) | after/before |")
    print("|---|---|---|---|")
    print(f"| import into a new book | {b[0]:.2f} s | {a[0]:.2f} s | {a[0] / b[0]:.2f} |")
    print(f"| book size after the import | {b[1] / 1e6:.1f} MB | {a[1] / 1e6:.1f} MB | {a[1] / b[1]:.3f} |")
    print(f"| one save (add, 2 fields, save), median of 50 | {b[2] * 1000:.2f} ms | {a[2] * 1000:.2f} ms | {a[2] / b[2]:.2f} |")
    print(f"| book size after the 50 saves | {b[3] / 1e6:.1f} MB | {a[3] / 1e6:.1f} MB | {a[3] / b[3]:.3f} |")


main()
