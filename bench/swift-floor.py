#!/usr/bin/env python3
"""The start-up floor of any Swift program built the way README installs ours, beside the goals
of issue 32 that are stated against C and the sqlite3 shell.

    swift-floor.py CONTACTSBOOK BOOK EMAIL_FRAGMENT [ROUNDS] > table.md

Builds, with the toolchain's swiftc and the same static runtime as our installed binary
(`-O -static-stdlib`, SQLite and libstdc++ from their archives where installed, as Package.swift
links them), three programs that read stdin to its end and exit:
  - `swift`: the standard library alone;
  - `swift + FoundationEssentials`: also touches ProcessInfo (swift-foundation's core, no ICU);
  - `swift + Foundation`: also touches NSNumber, i.e. links swift-corelibs-foundation, which
    GRDB imports (so every binary that uses GRDB pays it);
and two that run the sqlite3 shell's FTS query through SQLite's C API and print its rows, one with
the standard library alone (the floor of a Swift `query` with neither Foundation nor GRDB), one
also linking Foundation.
and runs them interleaved with a C program that does the same (bench/echo.c), the sqlite3 shell
running `query`'s FTS query on BOOK (compare-start.py's), and CONTACTSBOOK's `--help`, `query
--db BOOK EMAIL` and its pre-main floor (bench/nomain.c preloaded). Medians of wall (spawn to exit)
and CPU (user + sys, from wait4); each program's relative relocations (what the loader writes
into copy-on-write pages) from `readelf -r`."""
import importlib.util, os, re, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


# compare-start.py's way of timing one process (its name has a dash: loaded by path).
_spec = importlib.util.spec_from_file_location("compare_start", os.path.join(HERE, "compare-start.py"))
compare_start = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_start)


PROGRAMS = {
    "swift": "while readLine() != nil {}\n",
    "swift + FoundationEssentials": "import FoundationEssentials\n"
    "if ProcessInfo.processInfo.arguments.isEmpty { print(0) }\nwhile readLine() != nil {}\n",
    "swift + Foundation": "import Foundation\n"
    "if NSNumber(value: CommandLine.arguments.count).intValue == 0 { print(0) }\n"
    "while readLine() != nil {}\n",
}

# The same FTS query as the sqlite3 shell's row, through SQLite's C API and nothing else: what a
# `query` written in Swift without Foundation or GRDB could not go below (BOOK and SQL as arguments).
SQLITE_QUERY = r"""
var db: OpaquePointer?
guard sqlite3_open_v2(CommandLine.arguments[1], &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { fatalError() }
var statement: OpaquePointer?
guard sqlite3_prepare_v2(db, CommandLine.arguments[2], -1, &statement, nil) == SQLITE_OK else { fatalError() }
var out = ""
while sqlite3_step(statement) == SQLITE_ROW {
    for column in 0..<sqlite3_column_count(statement) {
        if column > 0 { out += "|" }
        if let text = sqlite3_column_text(statement, column) { out += String(cString: text) }
    }
    out += "\n"
}
sqlite3_finalize(statement)
sqlite3_close(db)
print(out, terminator: "")
"""
SQLITE_PROGRAMS = {
    "swift + SQLite's C API, the same FTS query": "import CSQLite\n" + SQLITE_QUERY,
    "swift + Foundation + SQLite's C API, the same FTS query":
        "import CSQLite\nimport Foundation\n"
        "if NSNumber(value: CommandLine.arguments.count).intValue == 0 { print(0) }\n" + SQLITE_QUERY,
}


# Linked as the installed binary is (Package.swift): SQLite and libstdc++ from their static
# archives, through the linker scripts under linker/, where the archives are installed.
ROOT = os.path.dirname(HERE)
ARCHIVES = []
if os.path.exists("/usr/lib/x86_64-linux-gnu/libsqlite3.a"):
    ARCHIVES += ["-L", os.path.join(ROOT, "linker", "sqlite")]
if any(os.path.exists(os.path.join("/usr/lib/gcc/x86_64-linux-gnu", v, "libstdc++.a"))
       for v in (os.listdir("/usr/lib/gcc/x86_64-linux-gnu") if os.path.isdir("/usr/lib/gcc/x86_64-linux-gnu") else [])):
    ARCHIVES += ["-L", os.path.join(ROOT, "linker", "stdc++"), "-lstdc++"]


def relocations(path):
    out = subprocess.run(["readelf", "-rW", path], capture_output=True, text=True).stdout
    return out.count("R_X86_64_RELATIVE")


def main():
    if len(sys.argv) not in (4, 5) or (len(sys.argv) == 5 and not sys.argv[4].isdigit()):
        sys.exit("usage: swift-floor.py CONTACTSBOOK BOOK EMAIL_FRAGMENT [ROUNDS] > table.md")
    binary, book, email = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 150
    work = tempfile.mkdtemp(prefix="swift-floor-")
    try:
        measure(binary, book, email, rounds, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(binary, book, email, rounds, work):
    swiftc = os.environ.get("SWIFTC", "swiftc")
    c = os.path.join(work, "c")
    subprocess.run(["cc", "-O2", "-o", c, os.path.join(HERE, "echo.c")], check=True)
    nomain = os.path.join(work, "nomain.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", nomain, os.path.join(HERE, "nomain.c"), "-ldl"], check=True)
    # The SQLite programs find SQLite's C API through this module map (`-I work`).
    with open(os.path.join(work, "module.modulemap"), "w") as f:
        f.write('module CSQLite [system] {\n    header "/usr/include/sqlite3.h"\n    link "sqlite3"\n    export *\n}\n')
    built = {}
    for label, source in {**PROGRAMS, **SQLITE_PROGRAMS}.items():
        name = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
        src = os.path.join(work, name + ".swift")
        with open(src, "w") as f:
            f.write(source)
        out = os.path.join(work, name)
        subprocess.run([swiftc, "-O", "-static-stdlib", "-I", work, src, "-o", out] + ARCHIVES, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        built[label] = out
    phrase = re.sub(r"(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])", " ", email.lower())
    sql = ("SELECT emails, given, family, organization FROM contact WHERE id IN "
           "(SELECT rowid FROM contact_text WHERE contact_text MATCH '\"%s\"*') "
           "ORDER BY sort_last, id LIMIT 100" % phrase.replace("'", "''"))
    preload = dict(os.environ, LD_PRELOAD=nomain)
    commands = [("C program", [c], None, c), ("sqlite3 shell, `query`'s FTS query", ["sqlite3", book, sql], None, None)]
    commands += [(label, [path] + ([book, sql] if label in SQLITE_PROGRAMS else []), None, path)
                 for label, path in built.items()]
    commands += [("contactsbook before main (nomain.c)", [binary], preload, binary),
                 ("contactsbook `--help`", [binary, "--help"], None, binary),
                 ("contactsbook `query`", [binary, "query", "--db", book, email], None, binary)]
    walls = {label: [] for label, *_ in commands}
    cpus = {label: [] for label, *_ in commands}
    for k in range(rounds + 1):
        for label, argv, env, _ in (commands if k % 2 else commands[::-1]):
            wall, cpu = compare_start.run(argv, None, env)
            if k:  # the first round warms the page cache
                walls[label].append(wall)
                cpus[label].append(cpu)
    ms = lambda xs: statistics.median(xs) * 1000
    c_cpu, c_wall = ms(cpus["C program"]), ms(walls["C program"])
    sq = "sqlite3 shell, `query`'s FTS query"
    sq_cpu, sq_wall = ms(cpus[sq]), ms(walls[sq])
    load = os.getloadavg()
    print("%d interleaved rounds, medians; load average %.1f %.1f %.1f at the end\n" % (rounds, *load))
    print("| program | relative relocations | wall | CPU | CPU ÷ C | CPU ÷ sqlite3 query |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, _, _, path in commands:
        rel = "%d" % relocations(path) if path else ""
        print("| %s | %s | %.2f ms | %.2f ms | %.2f | %.2f |" % (label, rel, ms(walls[label]), ms(cpus[label]),
                                                              ms(cpus[label]) / c_cpu, ms(cpus[label]) / sq_cpu))
    print("\nGoals: `--help` ≤ 3 × C = %.2f ms CPU (%.2f wall); `query` ≤ 1.2 × sqlite3 = %.2f ms CPU (%.2f wall)."
          % (3 * c_cpu, 3 * c_wall, 1.2 * sq_cpu, 1.2 * sq_wall))


if __name__ == "__main__":
    main()
