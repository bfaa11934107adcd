#!/usr/bin/env python3
"""Before/after for start-up: whole-process times of two binaries and the sqlite3 shell, interleaved.

    compare-start.py BEFORE_BIN AFTER_BIN BOOK EMAIL_FRAGMENT [ROUNDS [AFTER_BOOK]] > table.md

Each round runs every command once (no shell in between), so load from other work falls on all
alike. The commands: `query`, a session with one piped command, `--rpc` answering `initialize`
(newline-delimited, ending at EOF) and `--help`. For each command it prints the median wall time (spawn to exit) and the median CPU time of
the process (user + sys, from wait4), the after/before ratios, and for `query` its ratio to the
`sqlite3` shell running the same FTS query (bench.py's "first answer" query) on the same book.
BOOK must exist (no binary should make one). AFTER_BOOK, when given, is the book the after binary
reads (a copy it has upgraded: an older binary cannot read a newer schema); the shell reads BOOK."""
import os, re, statistics, subprocess, sys, time


def run(argv, stdin_path):
    """Wall and CPU (user + sys) seconds of one process."""
    with open(stdin_path or os.devnull, "rb") as stdin:
        t = time.perf_counter()
        child = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t
        child.returncode = 0  # reaped by wait4
    return wall, usage.ru_utime + usage.ru_stime


def main():
    before, after, book, email = sys.argv[1:5]
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 200
    after_book = sys.argv[6] if len(sys.argv) > 6 else book
    stack = os.path.join(os.path.dirname(os.path.abspath(book)), "compare-start-stack.txt")
    with open(stack, "w") as f:
        f.write("stack\n")
    initialize = os.path.join(os.path.dirname(os.path.abspath(book)), "compare-start-initialize.json")
    with open(initialize, "w") as f:
        f.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n')
    phrase = re.sub(r"(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])", " ", email.lower())
    sql = ("SELECT emails, given, family, organization FROM contact WHERE id IN "
           "(SELECT rowid FROM contact_text WHERE contact_text MATCH '\"%s\"*') "
           "ORDER BY sort_last, id LIMIT 100" % phrase.replace("'", "''"))
    shapes = [
        ("`query --db BOOK EMAIL` (mutt)", lambda db: ["query", "--db", db, email], None),
        ("`--db BOOK` with one piped command (`stack`)", lambda db: ["--db", db], stack),
        ("`--db BOOK --rpc` with `initialize`", lambda db: ["--db", db, "--rpc"], initialize),
        ("`--help` (no book)", lambda db: ["--help"], None),
    ]
    commands = [("sqlite3", ["sqlite3", book, sql], None)]
    for name, argv, stdin in shapes:
        commands.append(("before " + name, [before] + argv(book), stdin))
        commands.append(("after " + name, [after] + argv(after_book), stdin))
    walls = {name: [] for name, _, _ in commands}
    cpus = {name: [] for name, _, _ in commands}
    for k in range(rounds + 1):
        for name, argv, stdin in commands:
            wall, cpu = run(argv, stdin)
            if k:  # the first round warms the page cache
                walls[name].append(wall)
                cpus[name].append(cpu)
    ms = lambda values: statistics.median(values) * 1000
    print("| command | before wall | after wall | after/before | before CPU | after CPU | after/before |")
    print("|---|---|---|---|---|---|---|")
    for name, _, _ in shapes:
        b, a = "before " + name, "after " + name
        print("| %s | %.2f ms | %.2f ms | %.2f | %.2f ms | %.2f ms | %.2f |" % (
            name, ms(walls[b]), ms(walls[a]), ms(walls[a]) / ms(walls[b]),
            ms(cpus[b]), ms(cpus[a]), ms(cpus[a]) / ms(cpus[b])))
    query = shapes[0][0]
    print("| `sqlite3` shell, the same FTS query | %.2f ms | | | %.2f ms | | |" % (ms(walls["sqlite3"]), ms(cpus["sqlite3"])))
    print()
    print("`query` against the `sqlite3` shell: before %.2f× wall, %.2f× CPU; after %.2f× wall, %.2f× CPU (%d rounds)." % (
        ms(walls["before " + query]) / ms(walls["sqlite3"]), ms(cpus["before " + query]) / ms(cpus["sqlite3"]),
        ms(walls["after " + query]) / ms(walls["sqlite3"]), ms(cpus["after " + query]) / ms(cpus["sqlite3"]), rounds))


main()
