#!/usr/bin/env python3
"""STOPGAP bulk loader: writes generated cards straight into a ContactsBook database.

    sqlload.py N DATADIR DB [--seed S]

Used only for books too big to load through the line session's `add` form (about 300 saves a
second, and each save gets slower with the book's size), until the product has its own
`import`. DB must already exist with the product's schema (the harness opens it with
contactsbook first). Rows, sort keys and both FTS indexes are written the way
SQLiteContactStore writes them; folding uses Python's Unicode data (NFD, marks dropped,
casefold), which agrees with Foundation's folding on the generated names.
"""
import json
import os
import sqlite3
import sys
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402


def fold(text):
    # Foundation's diacritic folding drops marks on Latin, Greek and Cyrillic letters but keeps
    # them in scripts such as Devanagari (the virama stays).
    d = unicodedata.normalize("NFD", text)
    out, base = [], ""
    for ch in d:
        if unicodedata.combining(ch):
            if base and ord(base) < 0x0530:
                continue
        else:
            base = ch
        out.append(ch)
    d = "".join(out)
    return unicodedata.normalize("NFC", unicodedata.normalize("NFKC", d).casefold())


def sort_key(given, family, org, order):
    g, f, o = fold(given), fold(family), fold(org)
    if order == "first":
        parts = [g, f] if g else [f or o, ""]
    else:
        parts = [f, g] if f else [g or o, ""]
    return "\x01".join(parts) + "\x01" + o


def js(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def main(argv):
    n, datadir, db = int(argv[0]), argv[1], argv[2]
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 20240601
    import random
    rng = random.Random(seed)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    now = time.time()
    t = time.time()
    cur = con.cursor()
    cur.execute("BEGIN")
    for i in range(n):
        c = gen.make(rng, i)
        phones = [{"label": l, "value": v} for l, v in c["phones"]]
        emails = [{"label": l, "value": v} for l, v in c["emails"]]
        addrs = [{"label": l, "street": s, "city": ci, "region": r, "postalCode": p, "country": co}
                 for l, s, ci, r, p, co in c["addresses"]]
        cur.execute(
            "INSERT INTO contact (uid, given, family, nickname, organization, title, notes, phones, emails, "
            "addresses, tags, birthday, created_at, updated_at, sort_first, sort_last, version) "
            "VALUES (?,?,?,?,?,?,'',?,?,?,'[]',?,?,?,?,?,1)",
            (c["uid"], c["given"], c["family"], c["nickname"], c["org"], c["title"], js(phones), js(emails),
             js(addrs), c["birthday"], now, now, sort_key(c["given"], c["family"], c["org"], "first"),
             sort_key(c["given"], c["family"], c["org"], "last")))
        rowid = cur.lastrowid
        text = " ".join(fold(x) for x in [c["given"], c["family"], c["nickname"], c["org"]] + [v for _, v in c["emails"]])
        digits = " ".join("".join(ch for ch in v if ch.isdigit()) for _, v in c["phones"])
        cur.execute("INSERT INTO contact_text(rowid, text) VALUES (?, ?)", (rowid, text))
        cur.execute("INSERT INTO contact_phone(rowid, digits) VALUES (?, ?)", (rowid, digits))
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    print("%.1f" % (time.time() - t))


if __name__ == "__main__":
    main(sys.argv[1:])
