#!/usr/bin/env python3
"""`duplicates` at 10k and 100k contacts, and what keeping its index costs an import.

    bench/duplicates.py BIN [BASELINE_BIN] [--sizes 10000,100000] [--runs 5]

For each size: a book from bench/dupgen.py (about 3 % planted duplicates) imported by BIN,
then `BIN duplicates` timed RUNS times (whole process, CONTACTSBOOK_COUNTRY=US, output
discarded; medians of wall and of CPU time, user + sys, reported: on a busy shared host the
wall time is mostly waiting for a core) and its groups counted from `--json`. With a baseline
binary (one without the duplicate index), the import of the same file into a new book is
timed with both, interleaved in the same minutes, and the ratio of the medians given; and the
baseline's book is opened once by BIN, which fills the index by its migration.
Host noise is large (2 cores shared): read the medians, not single runs.
"""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "out")
ENV = dict(os.environ, CONTACTSBOOK_COUNTRY="US")


def timed(argv, stdin=None):
    """Wall seconds of one run; its CPU seconds (user + sys) are added to CPU[argv[1]]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=stdin, env=ENV, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall


# The CPU seconds of the last `timed` run: on a shared host the wall time waits for a core.
LAST_CPU = [0.0]


def cpu_timed(argv):
    wall = timed(argv)
    return wall, LAST_CPU[0]


def creates_with_flag(binary):
    """Newer binaries make a book at a new path only with --create."""
    help_text = subprocess.run([binary, "import", "--help"], capture_output=True, text=True).stdout
    return "--create" in help_text


def import_book(binary, cards, book):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(book + suffix):
            os.remove(book + suffix)
    argv = [binary, "import", "--db", book] + (["--create"] if creates_with_flag(binary) else []) + [cards]
    return timed(argv)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    sizes = [10000, 100000]
    runs = 5
    if "--sizes" in argv:
        sizes = [int(s) for s in argv[argv.index("--sizes") + 1].split(",")]
        args = [a for a in args if a != argv[argv.index("--sizes") + 1]]
    if "--runs" in argv:
        runs = int(argv[argv.index("--runs") + 1])
        args = [a for a in args if a != argv[argv.index("--runs") + 1]]
    binary = os.path.abspath(args[0])
    baseline = os.path.abspath(args[1]) if len(args) > 1 else None
    os.makedirs(OUT, exist_ok=True)
    for n in sizes:
        cards = os.path.join(OUT, "dups-%d.vcf" % n)
        if not os.path.exists(cards):
            subprocess.run([sys.executable, os.path.join(HERE, "dupgen.py"), str(n), cards], check=True)
        book = os.path.join(OUT, "dups-%d.sqlite" % n)
        print("== %d contacts" % n)
        if baseline:
            base_book = os.path.join(OUT, "dups-%d-baseline.sqlite" % n)
            ours, theirs, our_cpu, their_cpu = [], [], [], []
            for _ in range(3):
                theirs.append(import_book(baseline, cards, base_book))
                their_cpu.append(LAST_CPU[0])
                ours.append(import_book(binary, cards, book))
                our_cpu.append(LAST_CPU[0])
            print("import: wall this %.2f s, baseline %.2f s, ratio %.2f; CPU this %.2f s, baseline %.2f s, ratio %.2f"
                  " (medians of 3, interleaved)"
                  % (statistics.median(ours), statistics.median(theirs), statistics.median(ours) / statistics.median(theirs),
                     statistics.median(our_cpu), statistics.median(their_cpu),
                     statistics.median(our_cpu) / statistics.median(their_cpu)))
            migrated = os.path.join(OUT, "dups-%d-migrated.sqlite" % n)
            shutil.copyfile(base_book, migrated)
            wall, cpu = cpu_timed([binary, "list", "--db", migrated, "--limit", "1"])
            print("migration filling the index of the baseline's book (one open by `list --limit 1`): wall %.2f s, CPU %.2f s"
                  % (wall, cpu))
        else:
            import_book(binary, cards, book)
        measured = [cpu_timed([binary, "duplicates", "--db", book]) for _ in range(runs)]
        times, cpus = [m[0] for m in measured], [m[1] for m in measured]
        answer = subprocess.run([binary, "duplicates", "--json", "--db", book], capture_output=True, env=ENV)
        groups = json.loads(answer.stdout)["displayed"][0]["value"]["groups"]
        kinds = {}
        for group in groups:
            for reason in group["reasons"]:
                kinds[reason["kind"]] = kinds.get(reason["kind"], 0) + 1
        print("duplicates: wall median %.3f s of %d runs (min %.3f, max %.3f), CPU median %.3f s (min %.3f);"
              " %d groups, reasons %s"
              % (statistics.median(times), runs, min(times), max(times), statistics.median(cpus), min(cpus), len(groups),
                 json.dumps(kinds, sort_keys=True)))
        noop = [timed([binary, "list", "--db", book, "--limit", "1"]) for _ in range(runs)]
        print("for scale, `list --limit 1` on the same book: median %.3f s" % statistics.median(noop))


if __name__ == "__main__":
    main(sys.argv)
