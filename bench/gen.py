#!/usr/bin/env python3
"""Deterministic contact generator for the ContactsBook benchmarks.

    gen.py N OUTDIR [--seed S] [--vdir]

Writes, for the same N contacts (same seed => byte-identical output):
  OUTDIR/cards-N.vcf        one vCard 4.0 file with N cards (what `import` reads)
  OUTDIR/vdir-N/NNNNNNN.vcf with --vdir: one card per file, the layout khard reads
  OUTDIR/queries-N.json     search terms known to match: a name prefix, an email fragment and
                            phone digits, all taken from one generated contact

Names come from several scripts (Latin with diacritics, Greek, Cyrillic, Arabic, Hebrew,
Devanagari, Chinese, Japanese, Korean); each contact has 1-3 labelled emails and phones,
usually an organisation and title, 0-2 addresses and often a birthday (sometimes without year).
"""
import json
import os
import random
import sys

# (native, romanised) so emails stay ASCII whatever the script of the name.
GIVEN = [
    ("Ana", "ana"), ("José", "jose"), ("Zoë", "zoe"), ("François", "francois"), ("Jürgen", "jurgen"),
    ("Łukasz", "lukasz"), ("Søren", "soren"), ("Ngọc", "ngoc"), ("Mary", "mary"), ("John", "john"),
    ("Aisha", "aisha"), ("Émilie", "emilie"), ("Björn", "bjorn"), ("Ines", "ines"), ("Mateo", "mateo"),
    ("Γιώργος", "giorgos"), ("Ελένη", "eleni"), ("Дмитрий", "dmitry"), ("Анна", "anna"),
    ("Ольга", "olga"), ("محمد", "mohammed"), ("فاطمة", "fatima"), ("דוד", "david"), ("שרה", "sara"),
    ("प्रिया", "priya"), ("राहुल", "rahul"), ("伟", "wei"), ("芳", "fang"), ("陽翔", "haruto"),
    ("さくら", "sakura"), ("민준", "minjun"), ("서연", "seoyeon"), ("Oğuz", "oguz"), ("Ágnes", "agnes"),
    ("Chloé", "chloe"), ("Nuño", "nuno"), ("Kwame", "kwame"), ("Olúwa", "oluwa"), ("Siobhán", "siobhan"),
    ("Ethan", "ethan"), ("Lily", "lily"), ("Hiroshi", "hiroshi"), ("Priyanka", "priyanka"),
]
FAMILY = [
    ("García", "garcia"), ("Müller", "muller"), ("Núñez", "nunez"), ("Lefèvre", "lefevre"),
    ("Kowalczyk", "kowalczyk"), ("Nguyễn", "nguyen"), ("Smith", "smith"), ("O'Brien", "obrien"),
    ("Søndergaard", "sondergaard"), ("Dvořák", "dvorak"), ("Lee", "lee"), ("Johnson", "johnson"),
    ("Παπαδόπουλος", "papadopoulos"), ("Иванов", "ivanov"), ("Смирнова", "smirnova"),
    ("الهاشمي", "alhashimi"), ("כהן", "cohen"), ("शर्मा", "sharma"), ("王", "wang"), ("李", "li"),
    ("佐藤", "sato"), ("鈴木", "suzuki"), ("김", "kim"), ("박", "park"), ("Yılmaz", "yilmaz"),
    ("Szabó", "szabo"), ("Mensah", "mensah"), ("Adéyemí", "adeyemi"), ("Ó Súilleabháin", "osullivan"),
    ("da Silva", "dasilva"), ("van der Berg", "vanderberg"), ("Okafor", "okafor"), ("Brown", "brown"),
    ("Martin", "martin"), ("Rossi", "rossi"), ("Andersson", "andersson"), ("Fischer", "fischer"),
]
ORG_A = ["Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Tyrell", "Nordwind", "Søren & Co",
         "Łódź Tech", "株式会社 山田", "Ωmega", "Северсталь", "شركة النور", "Café Müller"]
ORG_B = ["Labs", "GmbH", "Ltd", "Inc.", "SARL", "AB", "KK", "Group", "Studio", "Systems", ""]
TITLES = ["Engineer", "Manager", "Directrice", "Designer", "Consultant", "CEO", "Buyer", "Nurse",
          "Teacher", "Ingenieur", "Analyst", ""]
DOMAINS = ["example.org", "example.com", "mail.example.net", "acme.example", "uni.example.edu"]
EMAIL_LABELS = ["work", "home", "other"]
PHONE_LABELS = ["mobile", "work", "home", "fax"]
STREETS = ["Main Street", "Rue de la Paix", "Hauptstraße", "Calle Mayor", "ul. Długa", "Via Roma",
           "Nevsky Prospekt", "Strøget", "Oxford Road", "Ringstraße"]
CITIES = [("Lisboa", "", "Portugal"), ("München", "Bayern", "Germany"), ("Kraków", "", "Poland"),
          ("Paris", "Île-de-France", "France"), ("Springfield", "IL", "USA"), ("東京", "", "Japan"),
          ("Москва", "", "Russia"), ("Αθήνα", "", "Greece"), ("Seoul", "", "Korea"),
          ("São Paulo", "SP", "Brazil"), ("Accra", "", "Ghana")]
COUNTRY_CODES = ["1", "44", "49", "33", "351", "48", "81", "82", "7", "30", "55", "233"]


def escape(value):
    """vCard 4.0 text value escaping (RFC 6350 3.4)."""
    return (value.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n"))


def fold(line):
    """RFC 6350 3.2: lines longer than 75 octets are folded, never inside a UTF-8 character."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return line + "\r\n"
    out, chunk, limit = [], b"", 75
    for ch in line:
        b = ch.encode("utf-8")
        if len(chunk) + len(b) > limit:
            out.append(chunk)
            chunk, limit = b"", 74  # continuation lines start with a space
        chunk += b
    out.append(chunk)
    return "\r\n ".join(c.decode("utf-8") for c in out) + "\r\n"


def make(rng, i):
    g, gr = rng.choice(GIVEN)
    f, fr = rng.choice(FAMILY)
    c = {"uid": "urn:uuid:%08x-0000-4000-8000-%012x" % (rng.getrandbits(32), i),
         "given": g, "family": f, "nickname": "", "org": "", "title": ""}
    if rng.random() < 0.1:
        c["nickname"] = gr.capitalize()
    if rng.random() < 0.7:
        c["org"] = (rng.choice(ORG_A) + " " + rng.choice(ORG_B)).strip()
        c["title"] = rng.choice(TITLES)
    c["emails"] = []
    for k in range(rng.randint(1, 3)):
        local = rng.choice(["%s.%s", "%s%s", "%s_%s"]) % (gr, fr) + ("" if k == 0 else str(k))
        local += str(rng.randint(1, 9999))
        c["emails"].append((EMAIL_LABELS[k], "%s@%s" % (local, rng.choice(DOMAINS))))
    c["phones"] = []
    for k in range(rng.randint(1, 3)):
        cc = rng.choice(COUNTRY_CODES)
        number = "+%s %03d %03d %04d" % (cc, rng.randint(100, 999), rng.randint(0, 999), rng.randint(0, 9999))
        c["phones"].append((PHONE_LABELS[k], number))
    c["addresses"] = []
    for k in range(rng.choice([0, 1, 1, 2])):
        city, region, country = rng.choice(CITIES)
        street = "%d %s" % (rng.randint(1, 300), rng.choice(STREETS))
        c["addresses"].append((["home", "work"][k], street, city, region, "%05d" % rng.randint(1000, 99999), country))
    c["birthday"] = None
    r = rng.random()
    if r < 0.5:
        c["birthday"] = "%04d-%02d-%02d" % (rng.randint(1940, 2010), rng.randint(1, 12), rng.randint(1, 28))
    elif r < 0.6:
        c["birthday"] = "--%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28))
    return c


def vcard(c):
    lines = ["BEGIN:VCARD", "VERSION:4.0", "UID:" + c["uid"],
             "FN:" + escape((c["given"] + " " + c["family"]).strip()),
             "N:%s;%s;;;" % (escape(c["family"]), escape(c["given"]))]
    if c["nickname"]:
        lines.append("NICKNAME:" + escape(c["nickname"]))
    if c["org"]:
        lines.append("ORG:" + escape(c["org"]))
    if c["title"]:
        lines.append("TITLE:" + escape(c["title"]))
    for label, value in c["emails"]:
        lines.append("EMAIL;TYPE=%s:%s" % (label, value))
    for label, value in c["phones"]:
        kind = {"mobile": "cell"}.get(label, label)
        lines.append("TEL;VALUE=text;TYPE=%s:%s" % (kind, value))
    for label, street, city, region, code, country in c["addresses"]:
        lines.append("ADR;TYPE=%s:;;%s;%s;%s;%s;%s" % (label, escape(street), escape(city), escape(region),
                                                        escape(code), escape(country)))
    if c["birthday"]:
        b = c["birthday"]
        lines.append("BDAY:" + (b.replace("-", "") if not b.startswith("--") else "--" + b[2:].replace("-", "")))
    lines.append("END:VCARD")
    return "".join(fold(l) for l in lines)


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    n, outdir = int(args[0]), args[1]
    seed = 20240601
    if "--seed" in argv:
        seed = int(argv[argv.index("--seed") + 1])
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(seed)
    probe = n // 2  # the contact whose fields become the search terms
    vdir = os.path.join(outdir, "vdir-%d" % n) if "--vdir" in argv else None
    if vdir:
        os.makedirs(vdir, exist_ok=True)
    with open(os.path.join(outdir, "cards-%d.vcf" % n), "w", encoding="utf-8", newline="") as vcf:
        for i in range(n):
            c = make(rng, i)
            card = vcard(c)
            vcf.write(card)
            if vdir:
                with open(os.path.join(vdir, "%07d.vcf" % i), "w", encoding="utf-8", newline="") as one:
                    one.write(card)
            if i == probe:
                email = c["emails"][0][1]
                digits = "".join(ch for ch in c["phones"][0][1] if ch.isdigit())
                queries = {
                    "name": "Kowal",  # a family-name prefix shared by about 1 contact in 37
                    "name_full": c["given"] + " " + c["family"],
                    "email": email.split("@")[0][:-1],
                    "phone": digits[-7:],
                    "probe": i,
                }
    with open(os.path.join(outdir, "queries-%d.json" % n), "w") as q:
        json.dump(queries, q, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1:])
