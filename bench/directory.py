#!/usr/bin/env python3
"""`contactsbook query` with one LDAP directory against `ldapsearch` for the same filter (issue 31).

    CONTACTSBOOK_BIN=.build/release/contactsbook python3 bench/directory.py [--previous BIN] [10000 100000]

For each size: a slapd (Tests/python/ldap_server.py) loaded with that many generated people, a book
of 2,000 contacts; then, for a few queries, RUNS rounds in which each command runs once, in turn
(interleaved, so that a machine's load moves them alike):
  - `contactsbook query TEXT` with the directory (book and directory at once),
  - `ldapsearch` asking the same server the same filter, size limit and attributes as `query`
    does (DirectoryMapping.mailAttributes): the floor of asking that server, a whole process, a
    connection, a search,
  - `contactsbook query TEXT` on the same book without a directory,
  - with --previous, the same `query` with the directory by another build (before a change),
and the floors, in the same rounds:
  - a C program that exits (bench/echo.c, stdin at its end): a process, nothing more,
  - our binary's pre-main floor: the same `query` command line on the book without a directory with
    bench/nomain.c preloaded, which runs the loader, the static constructors and exit, not main
    (with a directory, a constructor would start loading libldap: the search's work, not the floor),
  - the same search through our own C path alone (bench/ldapfloor.c with CLDAPSupport's
    cldap.c and lazyldap.c): libldap loaded, connect, search, entries decoded, no Swift, no book.
Prints a Markdown table of medians of the wall time (and p90) and of the CPU time (user + sys,
from wait4) of whole processes, as a mail client waits for them; ratios are of medians. Then a
second table: the floors and what they add up to. `query` with a directory cannot cost less than
its pre-main floor plus libldap's own work for the search (ldapfloor less the C program that
exits), whatever its own code does; that sum against 1.3 × ldapsearch says whether the target is
reachable at all, in CPU and in wall time."""
import os
import pathlib
import random
import shutil
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Tests" / "python"))
import ldap_server  # noqa: E402

BIN = os.environ.get("CONTACTSBOOK_BIN", ".build/release/contactsbook")
RUNS = int(os.environ.get("RUNS", "21"))
QUERIES = ["zoë", "ann lee", "p12345@corp", "xyzzy"]
# What `query` asks of each entry (DirectoryMapping.mailAttributes: the name, organisation and mail fields').
ATTRIBUTES = ["givenName", "sn", "displayName", "cn", "o", "company", "ou", "department", "mail"]
SEARCHED = ["cn", "displayName", "givenName", "sn", "mail", "telephoneNumber", "mobile", "o", "ou", "title"]


def ldap_filter(text):
    """What LDAPFilter.search builds (Sources/ContactsApp/Directory/LDAPFilter.swift)."""
    def escape(word):
        out = b""
        for byte in word.encode():
            out += b"\\%02x" % byte if byte in b"*()\\" or byte < 0x20 or byte == 0x7F else bytes([byte])
        return out.decode()
    clauses = "".join("(|" + "".join(f"({a}={escape(w)}*)" for a in SEARCHED) + ")" for w in text.split()[:8])
    return "(&(|(objectClass=inetOrgPerson)(objectClass=person))" + clauses + ")"


def once(command, env):
    """Wall seconds of one whole process, its output and status (stdin at its end)."""
    start = time.perf_counter()
    process = subprocess.run(command, capture_output=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start, process.stdout, process.stderr, process.returncode


def measured(commands, env):
    """Each command RUNS times, interleaved in a shuffled order; per command: wall and CPU lists (s) and last output.
    CPU from the children's rusage, which grows by each finished process's user and sys time."""
    results = {name: {"wall": [], "cpu": [], "out": b""} for name in commands}
    for round in range(RUNS):
        # A new order each round (seeded: the same for every run of the script): a process runs
        # faster after one of the same binary (its pages hot in the caches), so a fixed order gave
        # whichever command followed its twin ~0.2 ms less CPU than its rival (`directory4`).
        names = list(commands)
        random.Random(round).shuffle(names)
        for name in names:
            command = commands[name]
            # A command given as (argv, variables) runs with those added to the environment.
            command, extra = command if isinstance(command, tuple) else (command, {})
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall, out, err, code = once(command, {**env, **extra})
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            # 1: query found nothing; 4: ldapsearch stopped at the size limit, as query does.
            assert code in (0, 1, 4), (command, err)
            results[name]["wall"].append(wall)
            results[name]["cpu"].append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
            results[name]["out"] = out
    return results


def median_ms(values):
    return statistics.median(values) * 1000


def p90_ms(values):
    return sorted(values)[int(len(values) * 0.9)] * 1000


def book(path, count=2000):
    cards = path.with_suffix(".vcf")
    cards.write_text("".join(
        f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:b{i}\r\nN:Family{i};Given{i};;;\r\nFN:Given{i} Family{i}\r\n"
        f"EMAIL:g{i}@book.example\r\nEND:VCARD\r\n" for i in range(count)))
    subprocess.run([BIN, "import", str(cards), "--db", str(path), "--create"], check=True, capture_output=True)


ROOT = pathlib.Path(__file__).resolve().parent.parent


def floors(work):
    """The floor programs, built once: the C program that exits, nomain.so, ldapfloor."""
    compiler = shutil.which("clang") or "cc"  # CLDAPSupport.h's _Nonnull is clang's
    exit_program, nomain, ldapfloor = work / "exit", work / "nomain.so", work / "ldapfloor"
    support = ROOT / "Sources" / "CLDAPSupport"
    subprocess.run([compiler, "-O2", "-o", exit_program, ROOT / "bench" / "echo.c"], check=True)
    subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", nomain, ROOT / "bench" / "nomain.c", "-ldl"], check=True)
    subprocess.run([compiler, "-O2", "-I", support / "include", "-o", ldapfloor, ROOT / "bench" / "ldapfloor.c",
                    support / "cldap.c", support / "lazyldap.c", "-ldl", "-lpthread", "-lm"], check=True)
    return str(exit_program), str(nomain), str(ldapfloor)


def main(sizes, previous):
    env = {"HOME": "/tmp", "PATH": os.environ["PATH"]}
    floor_rows = []
    print(f"binary: {BIN}" + (f"; previous: {previous}" if previous else "")
          + f"; {RUNS} interleaved rounds; whole processes, ms, median (p90 of wall)\n")
    header = "| directory | query | query + directory, wall | ldapsearch, wall | ratio | query + directory, CPU | ldapsearch, CPU | query, book only, wall / CPU |"
    if previous:
        header += " previous build + directory, wall / CPU | previous build, book only, wall / CPU |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            server = ldap_server.LDAPServer(tmp, count=size)
            exit_program, nomain, ldapfloor = floors(tmp)
            try:
                plain, with_directory = tmp / "plain.sqlite", tmp / "dir.sqlite"
                book(plain)
                book(with_directory)
                subprocess.run([BIN, "directory", "add", "corp", server.url, "--plaintext", "--db", str(with_directory)],
                               check=True, capture_output=True)
                if previous:
                    # The previous build reads the book as it is (a newer schema is only read); a copy of its own.
                    older, older_plain = tmp / "previous.sqlite", tmp / "previous-plain.sqlite"
                    book(older)
                    shutil.copyfile(plain, older_plain)
                    subprocess.run([previous, "directory", "add", "corp", server.url, "--plaintext", "--db", str(older)],
                                   check=True, capture_output=True)
                for text in QUERIES:
                    commands = {
                        "ours": [BIN, "query", "--db", str(with_directory), *text.split()],
                        "floor": ["ldapsearch", "-x", "-LLL", "-H", f"ldap://127.0.0.1:{server.port}", "-b",
                                  ldap_server.PEOPLE, "-z", "50", "-l", "3", ldap_filter(text), *ATTRIBUTES],
                        "alone": [BIN, "query", "--db", str(plain), *text.split()],
                        "exit": [exit_program],
                        # On the book without a directory: with one, `query` starts loading libldap from a
                        # constructor (prewarm.c, `directory5`), which is the search's work, not the binary's floor.
                        "premain": ([BIN, "query", "--db", str(plain), *text.split()], {"LD_PRELOAD": nomain}),
                        "cldap": [ldapfloor, f"ldap://127.0.0.1:{server.port}", ldap_server.PEOPLE, ldap_filter(text),
                                  "50", "3", *ATTRIBUTES],
                    }
                    if previous:
                        commands["previous"] = [previous, "query", "--db", str(older), *text.split()]
                        # The previous build on the book without a directory: what a change costs `query` there.
                        commands["previous_alone"] = [previous, "query", "--db", str(older_plain), *text.split()]
                    r = measured(commands, env)
                    found = r["ours"]["out"].decode().count("corp directory")
                    ours, floor = median_ms(r["ours"]["wall"]), median_ms(r["floor"]["wall"])
                    row = (f"| {size:,} | `{text}` ({found} from the directory) | {ours:.1f} ({p90_ms(r['ours']['wall']):.1f}) | "
                           f"{floor:.1f} ({p90_ms(r['floor']['wall']):.1f}) | {ours / floor:.2f}× | "
                           f"{median_ms(r['ours']['cpu']):.1f} | {median_ms(r['floor']['cpu']):.1f} | "
                           f"{median_ms(r['alone']['wall']):.1f} / {median_ms(r['alone']['cpu']):.1f} |")
                    if previous:
                        row += (f" {median_ms(r['previous']['wall']):.1f} / {median_ms(r['previous']['cpu']):.1f} |"
                                f" {median_ms(r['previous_alone']['wall']):.1f} / {median_ms(r['previous_alone']['cpu']):.1f} |")
                        # Both builds print the same bytes, with and without the directory.
                        assert r["ours"]["out"] == r["previous"]["out"], text
                        assert r["alone"]["out"] == r["previous_alone"]["out"], text
                    print(row, flush=True)
                    # Our floor: pre-main plus libldap's own work (the C search less a process).
                    floor_rows.append((size, text, {name: (median_ms(r[name]["wall"]), median_ms(r[name]["cpu"]))
                                                    for name in ("ours", "floor", "alone", "exit", "premain", "cldap")}))
            finally:
                server.stop()
    print("\nFloors, same rounds (wall / CPU, ms, medians). *reachable floor* = our pre-main floor + "
          "(C search − C exit); the target is 1.3 × ldapsearch.\n")
    print("| directory | query | C exit | our pre-main | C search (cldap) | ldapsearch | reachable floor | 1.3 × ldapsearch "
          "| floor / ldapsearch | `query` + directory |")
    print("|" + "---|" * 10)
    for size, text, m in floor_rows:
        floor = [m["premain"][i] + m["cldap"][i] - m["exit"][i] for i in (0, 1)]
        print(f"| {size:,} | `{text}` | " + " | ".join(f"{m[n][0]:.1f} / {m[n][1]:.1f}"
                                                        for n in ("exit", "premain", "cldap", "floor"))
              + f" | {floor[0]:.1f} / {floor[1]:.1f} | {1.3 * m['floor'][0]:.1f} / {1.3 * m['floor'][1]:.1f} "
              f"| {floor[0] / m['floor'][0]:.2f}× / {floor[1] / m['floor'][1]:.2f}× "
              f"| {m['ours'][0]:.1f} / {m['ours'][1]:.1f} ({m['ours'][0] / m['floor'][0]:.2f}× / "
              f"{m['ours'][1] / m['floor'][1]:.2f}×) |")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    previous = None
    if "--previous" in arguments:
        at = arguments.index("--previous")
        previous = arguments[at + 1]
        del arguments[at:at + 2]
    main([int(a) for a in arguments] or [10_000, 100_000], previous)
