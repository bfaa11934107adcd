#!/usr/bin/env python3
"""`contactsbook query` with one LDAP directory against `ldapsearch` for the same filter (issue 31).

    CONTACTSBOOK_BIN=.build/release/contactsbook python3 bench/directory.py [10000 100000]

For each size: a slapd (Tests/python/ldap_server.py) loaded with that many generated people, a book
of 2,000 contacts; then, for a few queries, the median and p90 wall time over RUNS runs of
  - `contactsbook query TEXT` with the directory (book first, then the directory),
  - `ldapsearch` asking the same server the same filter, size limit and attributes (the floor of
    asking that server: a whole process, a connection, a search),
  - `contactsbook query TEXT` on the same book without a directory.
Prints a Markdown table. Wall times are of whole processes, as a mail client waits for them."""
import os
import pathlib
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
ATTRIBUTES = ["givenName", "sn", "displayName", "cn", "o", "company", "ou", "department", "title", "telephoneNumber",
              "mobile", "homePhone", "ipPhone", "pager", "facsimileTelephoneNumber", "mail", "street", "streetAddress",
              "l", "st", "postalCode", "co", "c", "postalAddress", "labeledURI", "wWWHomePage", "description", "info",
              "jpegPhoto", "thumbnailPhoto", "objectClass"]
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


def timed(command, env=None):
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, env=env, timeout=60)
        times.append(time.perf_counter() - start)
        # 4: ldapsearch stopped at the size limit, as query does.
        assert result.returncode in (0, 1, 4), (command, result.stderr)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.9)] * 1000, result.stdout


def book(path, count=2000):
    cards = path.with_suffix(".vcf")
    cards.write_text("".join(
        f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:b{i}\r\nN:Family{i};Given{i};;;\r\nFN:Given{i} Family{i}\r\n"
        f"EMAIL:g{i}@book.example\r\nEND:VCARD\r\n" for i in range(count)))
    subprocess.run([BIN, "import", str(cards), "--db", str(path), "--create"], check=True, capture_output=True)


def main(sizes):
    env = {"HOME": "/tmp", "PATH": os.environ["PATH"]}
    print(f"binary: {BIN}; {RUNS} runs each; wall time of the whole process, ms (median / p90)\n")
    print("| directory | query | contactsbook query + directory | ldapsearch, same filter | ratio | query, book only |")
    print("|---|---|---|---|---|---|")
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            server = ldap_server.LDAPServer(tmp, count=size)
            try:
                plain, with_directory = tmp / "plain.sqlite", tmp / "dir.sqlite"
                book(plain)
                book(with_directory)
                subprocess.run([BIN, "directory", "add", "corp", server.url, "--plaintext", "--db", str(with_directory)],
                               check=True, capture_output=True)
                for text in QUERIES:
                    ours = timed([BIN, "query", "--db", str(with_directory), *text.split()], env)
                    floor = timed(["ldapsearch", "-x", "-LLL", "-H", f"ldap://127.0.0.1:{server.port}", "-b",
                                   ldap_server.PEOPLE, "-z", "50", "-l", "3", ldap_filter(text), *ATTRIBUTES], env)
                    alone = timed([BIN, "query", "--db", str(plain), *text.split()], env)
                    found = ours[2].decode().count("corp directory")
                    print(f"| {size:,} | `{text}` ({found} from the directory) | {ours[0]:.1f} / {ours[1]:.1f} | "
                          f"{floor[0]:.1f} / {floor[1]:.1f} | {ours[0] / floor[0]:.2f}× | {alone[0]:.1f} / {alone[1]:.1f} |")
            finally:
                server.stop()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 100_000])
