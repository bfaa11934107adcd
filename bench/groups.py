#!/usr/bin/env python3
"""A group of 10k members in a big book (issue 30): `list --group NAME` against plain `list`, and
`contactsbook query GROUP` against `query PERSON`, in the same run on the same book.

    bench/groups.py BIN BOOK [--members 10000] [--runs 5] [--person jos]

BOOK is a book imported from `bench/gen.py` (bench/FINDINGS.md). The group `Bench 10k` is made
once if the book has none: every (contacts / members)-th contact by id is a member, its card
imported as a vCard 4.0 group (KIND:group, one MEMBER each), as a server's would come.

CPU time (user + sys), as bench/cpubench.py measures it (the host is shared, wall time is mostly
waiting for a core): line sessions of 1 and of 8 commands, 3 of each, least of each kept,
(many - one) / 7 per command; each `query` is a whole process, as mutt starts it, `--runs` times,
least and median CPU and median wall. Prints a Markdown table.

    bench/groups.py BIN BOOK --against BIN2 BOOK2 [--rounds 7]

Side by side, interleaved (A's run then B's, round after round): per command, the median over
the rounds of (8-command session - 1-command session) / 7, and each `query`'s median CPU. BOOK2
is a copy of BOOK (each binary may upgrade its own copy; the group is made in each by its BIN).
"""
import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import tempfile
import time

GROUP = "Bench 10k"


def make_group(binary, book, members):
    with sqlite3.connect(f"file:{book}?mode=ro", uri=True) as db:
        if db.execute("SELECT COUNT(*) FROM contact_group WHERE name = ?", (GROUP,)).fetchone()[0]:
            return
        total = db.execute("SELECT MAX(id) FROM contact").fetchone()[0]
        step = max(1, total // members)
        uids = [row[0] for row in db.execute("SELECT uid FROM contact WHERE id % ? = 0 ORDER BY id LIMIT ?",
                                             (step, members))]
    lines = ["BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:b0000000-0000-4000-8000-000000010000", "KIND:group",
             f"FN:{GROUP}", f"N:{GROUP};;;;"]
    lines += ["MEMBER:" + (uid if uid.startswith("urn:") else "urn:uuid:" + uid) for uid in uids]
    lines.append("END:VCARD")
    with tempfile.NamedTemporaryFile("w", suffix=".vcf", delete=False) as card:
        card.write("\r\n".join(lines) + "\r\n")
    try:
        subprocess.run([binary, "--db", book, "import", card.name], check=True, stdout=subprocess.DEVNULL)
    finally:
        os.unlink(card.name)


def cpu_of(run):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    run()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def per_command(binary, book, command, n=8):
    def session(k):
        text = (command + "\n") * k
        return cpu_of(lambda: subprocess.run([binary, "--db", book], input=text.encode(), stdout=subprocess.DEVNULL,
                                             check=True))[0]
    one = min(session(1) for _ in range(3))
    many = min(session(n) for _ in range(3))
    return (many - one) / (n - 1) * 1000


def query(binary, book, term, runs):
    results, out = [], b""
    for _ in range(runs):
        holder = {}
        def go():
            holder["out"] = subprocess.run([binary, "--db", book, "query", term], stdout=subprocess.PIPE,
                                           stderr=subprocess.DEVNULL, check=True).stdout
        results.append(cpu_of(go))
        out = holder["out"]
    cpu = sorted(c * 1000 for c, _ in results)
    wall = statistics.median(w * 1000 for _, w in results)
    return cpu[0], statistics.median(cpu), wall, out


def session_cpu(binary, book, command, k):
    text = (command + "\n") * k
    return cpu_of(lambda: subprocess.run([binary, "--db", book], input=text.encode(), stdout=subprocess.DEVNULL,
                                         check=True))[0]


def side_by_side(a, b, rounds, person, n=8):
    commands = ["list", f'list --group "{GROUP}"', f'list --group "{GROUP}"\nnext', "list --ungrouped",
                "list --ungrouped\nnext"]
    print(f"| command (CPU ms per command, median of {rounds} interleaved rounds) | A | B | B / A |")
    print("|---|---|---|---|")
    for command in commands:
        got = {0: [], 1: []}
        for _ in range(rounds):
            for side, (binary, book) in enumerate([a, b]):
                one = session_cpu(binary, book, command, 1)
                many = session_cpu(binary, book, command, n)
                got[side].append((many - one) / (n - 1) * 1000)
        ma, mb = statistics.median(got[0]), statistics.median(got[1])
        shown = command.replace("\n", " then ")
        print(f"| `{shown}` | {ma:.2f} | {mb:.2f} | {mb / ma if ma > 0 else float('nan'):.2f} |")
    print()
    print(f"| `query` (whole process, CPU ms, median of {rounds} interleaved) | A | B | output A / B bytes |")
    print("|---|---|---|---|")
    for term in [person, "bench"]:
        got, outs = {0: [], 1: []}, {}
        for _ in range(rounds):
            for side, (binary, book) in enumerate([a, b]):
                holder = {}
                def go():
                    holder["out"] = subprocess.run([binary, "--db", book, "query", term], stdout=subprocess.PIPE,
                                                   stderr=subprocess.DEVNULL, check=True).stdout
                got[side].append(cpu_of(go)[0] * 1000)
                outs[side] = holder["out"]
        same = "same" if outs[0] == outs[1] else "DIFFERENT"
        print(f"| `query {term}` | {statistics.median(got[0]):.1f} | {statistics.median(got[1]):.1f} | "
              f"{len(outs[0]):,} / {len(outs[1]):,} ({same}) |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("book")
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--person", default="jos")
    parser.add_argument("--against", nargs=2, metavar=("BIN2", "BOOK2"))
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    make_group(args.binary, args.book, args.members)
    if args.against:
        make_group(args.against[0], args.against[1], args.members)
        print(f"A: {args.binary} on {args.book}\nB: {args.against[0]} on {args.against[1]}\n")
        side_by_side((args.binary, args.book), tuple(args.against), args.rounds, args.person)
        return
    with sqlite3.connect(f"file:{args.book}?mode=ro", uri=True) as db:
        contacts = db.execute("SELECT COUNT(*) FROM contact").fetchone()[0]
        size = db.execute("SELECT COUNT(*) FROM group_member m JOIN contact_group g ON g.id = m.group_id "
                          "WHERE g.name = ?", (GROUP,)).fetchone()[0]
    print(f"Book: {contacts:,} contacts; group {GROUP!r}: {size:,} members.\n")
    print("| command | CPU ms per command (least of 3, 8-command sessions) |")
    print("|---|---|")
    for command in ["list", f'list --group "{GROUP}"', "list --ungrouped", f'list --group "{GROUP}"\nnext']:
        shown = command.replace("\n", " then ")
        print(f"| `{shown}` | {per_command(args.binary, args.book, command):.1f} |")
    print()
    print(f"| `query` (whole process, {args.runs} runs) | CPU least | CPU median | wall median | output |")
    print("|---|---|---|---|---|")
    for term in [args.person, "bench"]:
        least, median, wall, out = query(args.binary, args.book, term, args.runs)
        first = out.decode(errors="replace").splitlines()[0] if out else ""
        print(f"| `query {term}` | {least:.1f} ms | {median:.1f} ms | {wall:.1f} ms | {len(out):,} bytes; `{first[:60]}` |")


if __name__ == "__main__":
    main()
