#!/usr/bin/env python3
"""A book for measuring `duplicates`: N vCards of people with (nearly always) distinct names,
and about 3 % planted duplicates of earlier cards, a third each of the kinds `duplicates`
finds: the same email in other case, the same phone written without +1 (the book's country
is US), a near given name (Rob for Robert) at the same organisation.

    dupgen.py N OUT.vcf [--seed S]

gen.py's books draw from ~1,600 names, so nearly every contact there has a namesake at the
same email domain; real books do not look like that, and `duplicates` would list most of them.
"""
import random
import sys

SYLLABLES = ["ka", "lo", "mi", "ra", "ven", "tor", "sa", "lin", "do", "bre", "an", "el", "quin", "mar", "zu",
             "fe", "hol", "nis", "pa", "gru", "wel", "ti", "os", "ber", "cha", "dri", "mun", "sel", "ya", "kor"]
ORGS = ["Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Tyrell", "Nordwind", "Hooli", "Vandelay"]


def word(rng, parts):
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def person(rng, i):
    given, family = word(rng, 2), word(rng, 3)
    org = rng.choice(ORGS) + " " + word(rng, 2) if rng.random() < 0.6 else ""
    email = "%s.%s%d@%s.example" % (given.lower(), family.lower(), i, rng.choice(["mail", "post", "home", "work"]))
    phone = "+1 %03d %03d %04d" % (rng.randint(200, 999), rng.randint(200, 999), rng.randint(0, 9999))
    return {"uid": "p-%d" % i, "given": given, "family": family, "org": org, "email": email, "phone": phone}


def duplicate(rng, of, i):
    copy = dict(of, uid="d-%d" % i)
    kind = i % 3
    if kind == 0:
        copy["email"] = of["email"].upper()
        copy["phone"] = "+1 %03d %03d %04d" % (rng.randint(200, 999), rng.randint(200, 999), rng.randint(0, 9999))
    elif kind == 1:
        digits = of["phone"][3:].replace(" ", "")
        copy["phone"] = "(%s) %s-%s" % (digits[:3], digits[3:6], digits[6:])
        copy["email"] = "other%d@else.example" % i
    else:
        copy["given"] = of["given"][:3]
        copy["org"] = of["org"] or "Acme Dup"
        copy["email"] = "x%d@else.example" % i
        copy["phone"] = "+1 %03d %03d %04d" % (rng.randint(200, 999), rng.randint(200, 999), rng.randint(0, 9999))
        if not of["org"]:
            of["org"] = copy["org"]
    return copy


def vcard(c):
    lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:" + c["uid"], "N:%s;%s;;;" % (c["family"], c["given"]),
             "FN:%s %s" % (c["given"], c["family"]), "EMAIL:" + c["email"], "TEL:" + c["phone"]]
    if c["org"]:
        lines.append("ORG:" + c["org"])
    return "\r\n".join(lines + ["END:VCARD"]) + "\r\n"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    n, out = int(argv[1]), argv[2]
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 17
    rng = random.Random(seed)
    people = []
    for i in range(n):
        if people and rng.random() < 0.03:
            people.append(duplicate(rng, rng.choice(people), i))
        else:
            people.append(person(rng, i))
    with open(out, "w", encoding="utf-8") as f:
        for c in people:
            f.write(vcard(c))


if __name__ == "__main__":
    main(sys.argv)
