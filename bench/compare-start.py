#!/usr/bin/env python3
"""Before/after for start-up: whole-process times of two binaries, interleaved, same book.

    compare-start.py BEFORE_BIN AFTER_BIN BOOK EMAIL_FRAGMENT [ROUNDS] > table.md

Each round runs every command of both binaries once (as bench.py's `processes` does, no shell),
so load from other work falls on both alike; medians and the after/before ratio are printed.
BOOK must exist (neither binary should make one)."""
import os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

def main():
    before, after, book, email = sys.argv[1:5]
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 200
    b = bench.Bench.__new__(bench.Bench)
    b.out = os.path.dirname(os.path.abspath(book))
    shapes = [
        ("`query --db BOOK EMAIL` (mutt)", ["query", "--db", book, email], None),
        ("`--db BOOK` with one piped command (`stack`)", ["--db", book], "stack\n"),
        ("`--help` (no book)", ["--help"], None),
    ]
    commands = [(which + " " + name, [binary] + argv, text)
                for name, argv, text in shapes for which, binary in (("before", before), ("after", after))]
    times = b.processes(commands, rounds)
    print("| command | before (median) | after (median) | after/before |")
    print("|---|---|---|---|")
    for name, _, _ in shapes:
        mb, ma = statistics.median(times["before " + name]), statistics.median(times["after " + name])
        print("| %s | %.2f ms | %.2f ms | %.2f |" % (name, mb * 1000, ma * 1000, ma / mb))

main()
