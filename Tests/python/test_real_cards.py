"""Issue 25's corpus of real-world cards (Tests/Fixtures/vcards): each card, imported alone with
`contactsbook --db BOOK --create import CARD`, must export as valid vCard 3.0 and 4.0 (ez-vcard
says so), come back with the same properties in its own version, directly and after a trip through
the other version, and have every difference the import made named in its report. What each check
means exactly is in vcard_corpus.py.

Today's failures are listed in Tests/Fixtures/vcards/KNOWN-FAILURES.txt and run as
xfail(strict=True): a fix makes its test fail until its line is removed.
"""
import pytest

import vcard_corpus
import vcard_validator

CARDS = vcard_corpus.corpus_cards()
KNOWN = vcard_corpus.read_known_failures()


def _params():
    for card in CARDS:
        for check in vcard_corpus.CHECKS:
            marks = []
            if (card.id, check) in KNOWN:
                marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[(card.id, check)] or "known failure"))
            yield pytest.param(card, check, id=f"{card.id}-{check}", marks=marks)


@pytest.fixture(scope="module")
def corpus(request, tmp_path_factory):
    # Every selected card (all, or those -k picks) is imported and exported once, and ez-vcard
    # runs once per version for all of them, the first time a check asks; each test then reads
    # its answer.
    selected = {item.callspec.params["card"].id for item in request.session.items
                if hasattr(item, "callspec") and "card" in item.callspec.params}
    return vcard_corpus.Corpus([card for card in CARDS if card.id in selected],
                               tmp_path_factory.mktemp("real-cards"))


@pytest.mark.parametrize("card, check", list(_params()))
def test_real_card(corpus, card, check):
    outcome = corpus.check(card, check)
    assert outcome.passed, f"{card.id} {check}: {outcome.reason}\n{outcome.details}"


def test_the_corpus_is_what_the_issue_asks_for():
    origins = {card.path.parent.name for card in CARDS}
    versions = {card.version for card in CARDS}
    assert len(CARDS) >= 40 and len(origins) >= 6, (len(CARDS), origins)
    assert {"2.1", "3.0", "4.0"} <= versions
    listed = (vcard_corpus.CORPUS / "README.md").read_text(encoding="utf-8")
    for path in sorted(vcard_corpus.CORPUS.glob("*/*.vcf")):
        assert f"| {path.name} |" in listed, f"{path} is not in the corpus README"


def test_every_known_failure_names_a_card_and_check():
    ids = {card.id for card in CARDS}
    stale = [key for key in KNOWN if key[0] not in ids or key[1] not in vcard_corpus.CHECKS]
    assert not stale, f"KNOWN-FAILURES.txt lines for no card or check: {stale}"


# The harness itself must be able to fail: each check is shown a card it has to refuse.

def test_roundtrip_equivalence_sees_merged_name_parts_and_ignores_folding_and_case():
    source = vcard_corpus.parse(b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A B\r\nN:Family;Given;Additional;Prefix;Suffix\r\n"
                                b"TEL;TYPE=WORK,VOICE:+1 555\r\nNOTE:one\\, two\\nthree\r\nEND:VCARD\r\n")
    same = vcard_corpus.parse(b"begin:vcard\nversion:3.0\nfn:A B\nTEL;type=voice;TYPE=work:+1 555\n"
                              b"N:Family;Given;Additional;Prefix;Suf\n fix\nNOTE:one\\, two\\Nthree\n"
                              b"PRODID:-//x//y\nUID:given-one\nend:vcard\n")
    merged = vcard_corpus.parse(b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A B\r\nN:Family;Given Additional;;Prefix;Suffix\r\n"
                                b"TEL;TYPE=WORK,VOICE:+1 555\r\nNOTE:one\\, two\\nthree\r\nEND:VCARD\r\n")

    assert vcard_corpus.differences(source, same) == []
    found = vcard_corpus.differences(source, merged)
    assert [(d.kind, d.name, d.line) for d in found] == [("lost", "N", 4), ("added", "N", None)]


def test_roundtrip_equivalence_reads_2_1_quoted_printable_as_its_3_0_text():
    source = vcard_corpus.parse("BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Br=C3=BC=\r\n"
                                "ning;Michael\r\nTEL;WORK;PREF:1\r\nPHOTO;ENCODING=BASE64;JPEG:\r\n    QUJD\r\n\r\n"
                                "END:VCARD\r\n".encode())
    written = vcard_corpus.parse("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Brüning;Michael;;;\r\nTEL;TYPE=pref,work:1\r\n"
                                 "PHOTO;ENCODING=b;TYPE=image/jpeg:QUJD\r\nEND:VCARD\r\n".encode())
    assert vcard_corpus.differences(source, written) == []


def test_roundtrip_equivalence_sees_a_lost_group_and_a_reordered_phone():
    source = vcard_corpus.parse(b"BEGIN:VCARD\nVERSION:3.0\nFN:A\nitem1.EMAIL:a@x\nitem1.X-ABLabel:_$!<Other>!$_\n"
                                b"TEL:1\nTEL:2\nEND:VCARD\n")
    written = vcard_corpus.parse(b"BEGIN:VCARD\nVERSION:3.0\nFN:A\nEMAIL:a@x\nitem1.X-ABLabel:_$!<Other>!$_\n"
                                 b"TEL:2\nTEL:1\nEND:VCARD\n")
    found = {(d.kind, d.name) for d in vcard_corpus.differences(source, written)}
    assert found == {("lost", "EMAIL"), ("added", "EMAIL"), ("reordered", "TEL")}


def test_the_validator_finds_what_a_4_0_card_may_not_hold():
    card = (b"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nPHOTO;ENCODING=b;TYPE=JPEG:QUJD\r\nLABEL:x\r\n"
            b"NOTE:a\x0cb\r\nEND:VCARD\r\n")
    [answer] = vcard_validator.validate(card)
    problems = vcard_validator.errors(answer)
    assert any(p.startswith("PHOTO: W4") for p in problems), problems
    assert any(p.startswith("LABEL: W2") for p in problems), problems
    assert vcard_validator.raw_errors(card) == ["line 6: control byte 0x0c"]
    assert vcard_validator.syntax_errors(card, "4.0") == ["line 5 LABEL: not a vCard 4.0 property"]
    assert vcard_validator.syntax_errors(b"BEGIN:VCARD\r\nVERSION:3.0\r\nTEL;WORK;TYPE=cell:1\r\n"
                                         b"KEY;ENCODING=b:QU\r\n JD EF\r\nEND:VCARD\r\n", "3.0") == [
        "line 3 TEL: parameter 'WORK' without a name (2.1 syntax)",
        "line 4 KEY: whitespace inside its base64 value"]
    [fine] = vcard_validator.validate(b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nN:;A;;;\r\nTEL;TYPE=iPhone:1\r\nEND:VCARD\r\n")
    assert vcard_validator.errors(fine) == []


def test_cards_are_sliced_byte_exact_with_nested_cards_and_ios_line_ends():
    first = (b"BEGIN:VCARD\r\r\nVERSION:2.1\r\r\nN:parent\r\r\nAGENT:\r\r\nBEGIN:VCARD\r\r\nN:nested\r\r\n"
             b"END:VCARD\r\r\nTEL:1\r\r\nEND:VCARD\r\r\n")
    second = b"begin:vcard\nversion:3.0\nFN:B\nend:vcard\n"

    assert vcard_corpus.split_cards(b"junk\n" + first + b"\r\n" + second) == [first, second]
    card = vcard_corpus.parse(first)
    assert [(p.line, p.name) for p in card.properties] == [(2, "VERSION"), (3, "N"), (4, "AGENT"), (8, "TEL")]
    assert card.properties[2].value[0] == "card" and card.noise == []
