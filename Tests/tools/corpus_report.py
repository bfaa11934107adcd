#!/usr/bin/env python3
"""Runs issue 25's real-card checks (Tests/python/vcard_corpus.py) on every card of
Tests/Fixtures/vcards and prints a table card by card, the totals per check, and the failure
reasons ranked by how many cards they hit (what to fix first).

    python3 Tests/tools/corpus_report.py [--bin .build/debug/contactsbook] [--only TEXT]
                                         [--details] [--write-known-failures]

--write-known-failures rewrites Tests/Fixtures/vcards/KNOWN-FAILURES.txt from this run; the
table also marks what changed against the file as it was (FIXED: passes but listed; NEW: fails
but not listed), which is what test_real_cards.py's strict xfails will say.
"""
import argparse
import collections
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import vcard_corpus  # noqa: E402

SHORT = {"valid-3.0": "v3", "valid-4.0": "v4", "roundtrip": "rt", "roundtrip-other": "rt2", "report": "rep"}


def atoms(check, reason):
    """The separate causes in one reason line, for ranking: 'lost N,ORG; added FN' -> lost N,
    lost ORG, added FN."""
    found = []
    reason = re.sub(r" \(\+\d+ more contact\(s\)\)", "", reason)
    if reason.startswith("not imported"):
        return [f"{check}: not imported ({re.sub(r'line [0-9]+', 'line N', reason.split(': ', 1)[-1])[:80]})"]
    prefix = ""
    if reason.startswith("not in the report: "):
        prefix, reason = "unnamed ", reason[len("not in the report: "):]
    for part in reason.split("; "):
        match = re.match(r"(lost|added|reordered) (.+)", part)
        if match:
            found += [f"{check}: {prefix}{match.group(1)} {name}" for name in match.group(2).split(",")]
        else:
            # A validation problem: "W2 LABEL,NAME" is one cause per property.
            match = re.match(r"(W\d+|P\d+|bare parameter|not a vCard 4.0 property|whitespace inside its base64 value) (.+)", part)
            if match:
                found += [f"{check}: {match.group(1)} {name}" for name in match.group(2).split(",")]
            else:
                found.append(f"{check}: {prefix}{part}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", help="the contactsbook to run (default: $CONTACTSBOOK_BIN or .build/debug)")
    parser.add_argument("--only", help="only cards whose id contains this text")
    parser.add_argument("--details", action="store_true", help="print every failure's details")
    parser.add_argument("--write-known-failures", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.bin:
        os.environ["CONTACTSBOOK_BIN"] = os.path.abspath(args.bin)
    cards = [card for card in vcard_corpus.corpus_cards() if not args.only or args.only in card.id]
    corpus = vcard_corpus.Corpus(cards, jobs=args.jobs)
    known = vcard_corpus.read_known_failures()
    outcomes = [((card.id, check), corpus.check(card, check)) for card in cards for check in vcard_corpus.CHECKS]
    by_card = collections.defaultdict(dict)
    for (card_id, check), outcome in outcomes:
        by_card[card_id][check] = outcome

    width = max(len(card.id) for card in cards)
    print(f"{'card':<{width}}  ver  " + "  ".join(f"{SHORT[c]:<4}" for c in vcard_corpus.CHECKS) + "  why (first failing check)")
    changes = []
    for card in cards:
        marks = []
        for check in vcard_corpus.CHECKS:
            outcome = by_card[card.id][check]
            listed = (card.id, check) in known
            mark = "ok" if outcome.passed else "FAIL"
            if outcome.passed and listed:
                mark = "FIX"
                changes.append(f"FIXED {card.id} {check}")
            elif not outcome.passed and not listed:
                mark = "NEW"
                changes.append(f"NEW   {card.id} {check}: {outcome.reason}")
            marks.append(f"{mark:<4}")
        first = next((f"{check}: {by_card[card.id][check].reason}" for check in vcard_corpus.CHECKS
                      if not by_card[card.id][check].passed), "")
        print(f"{card.id:<{width}}  {card.version:<4} " + "  ".join(marks) + "  " + first[:160])
        if args.details:
            for check in vcard_corpus.CHECKS:
                outcome = by_card[card.id][check]
                if not outcome.passed:
                    print(f"    [{check}] {outcome.reason}")
                    for line in outcome.details.splitlines()[:40]:
                        print(f"        {line}")

    print()
    print(f"{len(cards)} cards from {len({c.path for c in cards})} files, "
          f"{len({c.path.parent.name for c in cards})} origins")
    for check in vcard_corpus.CHECKS:
        passed = sum(by_card[card.id][check].passed for card in cards)
        print(f"  {check:<16} {passed:>4} pass  {len(cards) - passed:>4} fail")
    everything = sum(all(o.passed for o in by_card[card.id].values()) for card in cards)
    print(f"  {'all five':<16} {everything:>4} pass  {len(cards) - everything:>4} fail")

    ranked = collections.Counter()
    for (card_id, check), outcome in outcomes:
        if not outcome.passed:
            ranked.update(set(atoms(check, outcome.reason)))
    causes = collections.defaultdict(set)  # the same cause seen by any check, and its cards
    for (card_id, check), outcome in outcomes:
        if not outcome.passed:
            for atom in atoms(check, outcome.reason):
                cause = atom.split(": ", 1)[1]
                if cause.startswith("not imported"):
                    cause = re.sub(r"line N: ", "", cause)
                causes[cause].add(card_id)
    # Coarser: one kind of problem whatever the property ("bare parameter" on TEL or on EMAIL),
    # with one message ez-vcard gave for it, so the list reads as what to fix first.
    examples = {}
    for _, outcome in outcomes:
        for line in outcome.details.splitlines():
            match = re.match(r"(?:line \d+ )?\S*: (W\d+|parse warning \d+): (.*)", line)
            if match:
                examples.setdefault(match.group(1).replace("parse warning ", "P"), match.group(2))
    kinds = collections.defaultdict(set)
    for cause, hit in causes.items():
        match = re.match(r"(W\d+|P\d+|bare parameter|not a vCard 4.0 property|whitespace inside its base64 value|"
                         r"(?:unnamed )?(?:lost|added|reordered)|not imported) ", cause)
        kinds[match.group(1) if match else cause] |= hit
    print("\nKinds of problem, by the number of cards they hit (in any check):")
    for kind, hit in sorted(kinds.items(), key=lambda item: (-len(item[1]), item[0]))[:25]:
        example = f"  ({examples[kind]})" if kind in examples else ""
        print(f"  {len(hit):>4}  {kind}{example}"[:220])
    print("\nCauses, by the number of cards they hit (in any check):")
    for cause, hit in sorted(causes.items(), key=lambda item: (-len(item[1]), item[0]))[:30]:
        print(f"  {len(hit):>4}  {cause}")
    print("\nFailure reasons per check, by the number of cards they hit:")
    for reason, count in ranked.most_common(40):
        print(f"  {count:>4}  {reason}")

    if changes:
        print("\nAgainst KNOWN-FAILURES.txt:")
        for change in changes:
            print("  " + change)
    if args.write_known_failures:
        if args.only:
            sys.exit("--write-known-failures needs the whole corpus (no --only)")
        vcard_corpus.write_known_failures(outcomes)
        print(f"\nwrote {vcard_corpus.KNOWN_FAILURES}")


if __name__ == "__main__":
    main()
