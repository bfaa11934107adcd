#!/usr/bin/env python3
"""vCard 3.0 cards as an iPhone or macOS Contacts export writes them, for the export benchmark.

    gen30.py N OUTDIR [--seed S]

Writes OUTDIR/cards30-N.vcf: the same N contacts as gen.py (same seed), each written the way
Apple writes 3.0: `type=` parameters repeated, `type=pref`, PRODID, a NOTE, every address in an
item group with its X-ABADR, the third email in an item group with an Apple built-in label, and
a birthday as a date (or with X-APPLE-OMIT-YEAR when the year is unknown). Every contact has at
least one address and a note, so a card is about 16-22 lines. Exporting these as 4.0 goes
through VCardVersionConverter's cross-version path; gen.py's 4.0 cards never do.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402  (its data and make(), so the contacts match cards-N.vcf)

NOTES = ["Met at the conference in Lisboa, 2019.\nPrefers email.",
         "Knows the building caretaker; call before 10.",
         "Supplier contact (invoices go to accounts; not to her).",
         "Old school friend. Likes tea, not coffee.",
         "Referred by Ana; ask about the Kraków office."]
PHONE_TYPES = {"mobile": "type=CELL;type=VOICE", "work": "type=WORK;type=VOICE",
               "home": "type=HOME;type=VOICE", "fax": "type=WORK;type=FAX"}
ISO = {"Portugal": "pt", "Germany": "de", "Poland": "pl", "France": "fr", "USA": "us", "Japan": "jp",
       "Russia": "ru", "Greece": "gr", "Korea": "kr", "Brazil": "br", "Ghana": "gh"}


def esc(value):
    """vCard 3.0 text escaping (RFC 2426 5: backslash, comma, semicolon, newline)."""
    return value.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")


def vcard30(c, rng):
    lines = ["BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Apple Inc.//iPhone OS 17.4//EN",
             "N:%s;%s;;;" % (esc(c["family"]), esc(c["given"])),
             "FN:" + esc((c["given"] + " " + c["family"]).strip())]
    if c["nickname"]:
        lines.append("NICKNAME:" + esc(c["nickname"]))
    if c["org"]:
        lines.append("ORG:%s;" % esc(c["org"]))
    if c["title"]:
        lines.append("TITLE:" + esc(c["title"]))
    item = 0
    for k, (label, value) in enumerate(c["emails"]):
        if label == "other":
            item += 1
            lines.append("item%d.EMAIL;type=INTERNET:%s" % (item, value))
            lines.append("item%d.X-ABLabel:_$!<Other>!$_" % item)
        else:
            lines.append("EMAIL;type=INTERNET;type=%s%s:%s" % (label.upper(), ";type=pref" if k == 0 else "", value))
    for k, (label, value) in enumerate(c["phones"]):
        lines.append("TEL;%s%s:%s" % (PHONE_TYPES[label], ";type=pref" if k == 0 else "", value))
    addresses = c["addresses"] or [("home", "%d %s" % (rng.randint(1, 300), rng.choice(gen.STREETS)),
                                    "Lisboa", "", "%05d" % rng.randint(1000, 99999), "Portugal")]
    for k, (label, street, city, region, code, country) in enumerate(addresses):
        item += 1
        lines.append("item%d.ADR;type=%s%s:;;%s;%s;%s;%s;%s" % (
            item, label.upper(), ";type=pref" if k == 0 else "", esc(street), esc(city), esc(region),
            esc(code), esc(country)))
        lines.append("item%d.X-ABADR:%s" % (item, ISO[country]))
    lines.append("NOTE:" + esc(rng.choice(NOTES)))
    b = c["birthday"]
    if b and b.startswith("--"):
        lines.append("BDAY;X-APPLE-OMIT-YEAR=1604:1604-%s" % b[2:])
    elif b:
        lines.append("BDAY;value=date:" + b)
    lines.append("UID:" + c["uid"].replace("urn:uuid:", "").upper())
    lines.append("END:VCARD")
    return "".join(gen.fold(l) for l in lines)


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    n, outdir = int(args[0]), args[1]
    seed = 20240601
    if "--seed" in argv:
        seed = int(argv[argv.index("--seed") + 1])
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(seed)
    extra = random.Random(seed + 1)  # notes and filled-in addresses, so make() sees gen.py's sequence
    with open(os.path.join(outdir, "cards30-%d.vcf" % n), "w", encoding="utf-8", newline="") as vcf:
        for i in range(n):
            vcf.write(vcard30(gen.make(rng, i), extra))


if __name__ == "__main__":
    main(sys.argv[1:])
