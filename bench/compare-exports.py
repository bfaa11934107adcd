#!/usr/bin/env python3
"""Compare two vCard exports of the same contacts card by card, when their bytes may differ.

    compare-exports.py A.vcf B.vcf

Cards are matched by UID (urn:uuid: and case ignored); each card's content lines are unfolded.
Prints the cards and bytes in each, how many matched cards have the same lines in the same
order, the same lines in another order, or other lines, and the most common property shapes
(name and parameters, value left out) found only in A or only in B.
"""
import collections
import re
import sys


def cards(path):
    text = open(path, "rb").read().decode("utf-8", "replace")
    text = re.sub(r"\r?\n[ \t]", "", text)  # unfold
    out, cur = {}, None
    for line in text.splitlines():
        if line.upper() == "BEGIN:VCARD":
            cur = []
        elif line.upper() == "END:VCARD" and cur is not None:
            uid = next((l.split(":", 1)[1] for l in cur if re.match(r"(?i)^(item\d+\.)?UID[;:]", l)), "")
            out[uid.lower().replace("urn:uuid:", "")] = cur
            cur = None
        elif cur is not None and line:
            cur.append(line)
    return out


def shape(line):
    head = line.split(":", 1)[0]
    return re.sub(r"^item\d+\.", "itemN.", head, flags=re.I)


def main(a_path, b_path):
    a, b = cards(a_path), cards(b_path)
    import os
    print("A %d cards %d bytes, B %d cards %d bytes" % (len(a), os.path.getsize(a_path), len(b), os.path.getsize(b_path)))
    same = reordered = differ = 0
    only_a, only_b = collections.Counter(), collections.Counter()
    for uid in a.keys() & b.keys():
        x, y = a[uid], b[uid]
        if x == y:
            same += 1
            continue
        cx, cy = collections.Counter(x), collections.Counter(y)
        if cx == cy:
            reordered += 1
            continue
        differ += 1
        for l in (cx - cy).elements():
            only_a[shape(l)] += 1
        for l in (cy - cx).elements():
            only_b[shape(l)] += 1
    print("matched %d: same lines %d, reordered %d, other lines %d; unmatched A %d, B %d" % (
        len(a.keys() & b.keys()), same, reordered, differ, len(a.keys() - b.keys()), len(b.keys() - a.keys())))
    print("lines only in A (top): " + ", ".join("%s x%d" % kv for kv in only_a.most_common(8)))
    print("lines only in B (top): " + ", ".join("%s x%d" % kv for kv in only_b.most_common(8)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
