#!/usr/bin/env python3
"""Before/after for start-up: whole-process times of two binaries, the sqlite3 shell and a C
program that exits, interleaved.

    compare-start.py BEFORE_BIN AFTER_BIN BOOK EMAIL_FRAGMENT [ROUNDS [AFTER_BOOK [NAME]]] > table.md

The commands are issue 32's four start-up goals: `query --db BOOK EMAIL` (mutt), `--help`,
`--rpc --db BOOK` up to `initialize` answered (stdin: one `initialize` line, then end of input),
and one piped command (`--db BOOK`, stdin `search NAME`; NAME defaults to Kowal, bench.py's).
A fifth row is what an editor waits for: `--rpc --db BOOK` with stdin a pipe kept open, the
`initialize` line written, wall from spawn to the answer's line read on stdout (CPU: the whole
process, after stdin is then closed); the fourth row's process wall also counts its exit.
Each round runs every command once (no shell in between), in reversed order every other round, so
load from other work falls on all alike. For each command it prints the median wall time (spawn
to exit) and the median CPU time of the process (user + sys, from wait4), the after/before
ratios, and the ratios the goals are stated in: `query` against the `sqlite3` shell running the
same FTS query (bench.py's "first answer" query) on the same book, `--help` against the C
program (bench/echo.c with stdin at end of input). Beside them, each binary's own floor: the
binary with bench/nomain.c preloaded, which runs the dynamic loader, the static initialisers and
exit but not main (the C program with it preloaded says what the preloading itself costs).
BOOK must exist (no binary should make one).
AFTER_BOOK, when given, is the book the after binary reads (a copy it has upgraded: an older
binary cannot read a newer schema); the shell reads BOOK. BEFORE_BIN and AFTER_BIN may be the
same file (the noise between two copies of one binary)."""
import os, re, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(argv, stdin_path, env=None):
    """Wall and CPU (user + sys) seconds of one process."""
    with open(stdin_path or os.devnull, "rb") as stdin:
        t = time.perf_counter()
        child = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, _, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t
        child.returncode = 0  # reaped by wait4
    return wall, usage.ru_utime + usage.ru_stime


def run_answered(argv, line):
    """Wall seconds until the first line of stdout (stdin kept open), and the process's CPU."""
    t = time.perf_counter()
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    child.stdin.write(line)
    child.stdin.flush()
    child.stdout.readline()
    wall = time.perf_counter() - t
    child.stdin.close()
    child.stdout.read()
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped by wait4
    return wall, usage.ru_utime + usage.ru_stime


def main():
    before, after, book, email = sys.argv[1:5]
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 200
    after_book = sys.argv[6] if len(sys.argv) > 6 and sys.argv[6] else book
    name = sys.argv[7] if len(sys.argv) > 7 else "Kowal"
    work = tempfile.mkdtemp(prefix="compare-start-")
    floor = os.path.join(work, "exit")
    subprocess.run(["cc", "-O2", "-o", floor, os.path.join(HERE, "echo.c")], check=True)
    nomain = os.path.join(work, "nomain.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", nomain, os.path.join(HERE, "nomain.c"), "-ldl"], check=True)
    preload = dict(os.environ, LD_PRELOAD=nomain)
    init = os.path.join(work, "initialize.txt")
    with open(init, "w") as f:
        f.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n')
    piped = os.path.join(work, "search.txt")
    with open(piped, "w") as f:
        f.write("search %s\n" % name)
    phrase = re.sub(r"(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])", " ", email.lower())
    sql = ("SELECT emails, given, family, organization FROM contact WHERE id IN "
           "(SELECT rowid FROM contact_text WHERE contact_text MATCH '\"%s\"*') "
           "ORDER BY sort_last, id LIMIT 100" % phrase.replace("'", "''"))
    shapes = [
        ("`query --db BOOK EMAIL` (mutt)", lambda db: ["query", "--db", db, email], None),
        ("`--help` (no book)", lambda db: ["--help"], None),
        ("`--rpc --db BOOK` up to `initialize` answered", lambda db: ["--rpc", "--db", db], init),
        ("`--db BOOK`, one piped command (`search %s`)" % name, lambda db: ["--db", db], piped),
    ]
    answered = "`--rpc --db BOOK`, `initialize` answered, stdin kept open (the client's wait)"
    shapes.append((answered, lambda db: ["--rpc", "--db", db], "ANSWER"))
    commands = [("sqlite3", ["sqlite3", book, sql], None, None), ("C", [floor], None, None),
                ("C floor", [floor], None, preload), ("before floor", [before], None, preload),
                ("after floor", [after], None, preload)]
    for label, argv, stdin in shapes:
        commands.append(("before " + label, [before] + argv(book), stdin, None))
        commands.append(("after " + label, [after] + argv(after_book), stdin, None))
    walls = {label: [] for label, _, _, _ in commands}
    cpus = {label: [] for label, _, _, _ in commands}
    for k in range(rounds + 1):
        for label, argv, stdin, env in (commands if k % 2 else commands[::-1]):
            if stdin == "ANSWER":
                wall, cpu = run_answered(argv, b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n')
            else:
                wall, cpu = run(argv, stdin, env)
            if k:  # the first round warms the page cache
                walls[label].append(wall)
                cpus[label].append(cpu)
    ms = lambda values: statistics.median(values) * 1000
    print("| command | before wall | after wall | after/before | before CPU | after CPU | after/before |")
    print("|---|---|---|---|---|---|---|")
    for label, _, _ in shapes:
        b, a = "before " + label, "after " + label
        print("| %s | %.2f ms | %.2f ms | %.2f | %.2f ms | %.2f ms | %.2f |" % (
            label, ms(walls[b]), ms(walls[a]), ms(walls[a]) / ms(walls[b]),
            ms(cpus[b]), ms(cpus[a]), ms(cpus[a]) / ms(cpus[b])))
    print("| `sqlite3` shell, the same FTS query | %.2f ms | | | %.2f ms | | |" % (ms(walls["sqlite3"]), ms(cpus["sqlite3"])))
    print("| a C program that exits | %.2f ms | | | %.2f ms | | |" % (ms(walls["C"]), ms(cpus["C"])))
    print("| the binary's floor: loader, static initialisers, exit; no `main` (bench/nomain.c) | %.2f ms | %.2f ms | %.2f | %.2f ms | %.2f ms | %.2f |" % (
        ms(walls["before floor"]), ms(walls["after floor"]), ms(walls["after floor"]) / ms(walls["before floor"]),
        ms(cpus["before floor"]), ms(cpus["after floor"]), ms(cpus["after floor"]) / ms(cpus["before floor"])))
    print("| the C program's floor the same way (what preloading costs) | %.2f ms | | | %.2f ms | | |" % (
        ms(walls["C floor"]), ms(cpus["C floor"])))
    print()
    query, help_ = shapes[0][0], shapes[1][0]
    print("Goals (%d rounds): `query` ÷ `sqlite3` (≤ 1.2): before %.2f wall, %.2f CPU; after %.2f wall, %.2f CPU. "
          "`--help` ÷ C (≤ 3): before %.2f wall, %.2f CPU; after %.2f wall, %.2f CPU." % (
              rounds,
              ms(walls["before " + query]) / ms(walls["sqlite3"]), ms(cpus["before " + query]) / ms(cpus["sqlite3"]),
              ms(walls["after " + query]) / ms(walls["sqlite3"]), ms(cpus["after " + query]) / ms(cpus["sqlite3"]),
              ms(walls["before " + help_]) / ms(walls["C"]), ms(cpus["before " + help_]) / ms(cpus["C"]),
              ms(walls["after " + help_]) / ms(walls["C"]), ms(cpus["after " + help_]) / ms(cpus["C"])))


if __name__ == "__main__":
    main()
