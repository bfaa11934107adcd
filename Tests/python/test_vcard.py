"""vCard interchange checked by an independent parser: vobject reads our exports, and cards
vobject writes are imported by us. Also the mutt query mode end to end."""
import os
import subprocess

import vobject

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "ContactsAppTests", "Fixtures")


def run(tmp_path, commands, *args):
    return subprocess.run(
        [os.environ["CONTACTSBOOK_BIN"], *args],
        input="".join(c + "\n" for c in commands), capture_output=True, text=True,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )


def test_vobject_reads_our_vcard4_and_vcard3_exports(tmp_path):
    for version in ["vcard4", "vcard3"]:
        db = str(tmp_path / f"{version}.sqlite")
        out = tmp_path / f"book-{version}.vcf"
        result = run(tmp_path, [f"import {FIXTURES}/apple-3.0.vcf", f"import {FIXTURES}/rfc6350-4.0.vcf",
                                f"export {out} {version}"], "--db", db, "--create")
        assert result.returncode == 0, result.stderr
        raw = out.read_bytes()
        assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
        assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
        cards = list(vobject.readComponents(raw.decode("utf-8")))
        by_uid = {card.uid.value: card for card in cards}
        assert len(cards) == 6
        ann = by_uid["apple-ann-1"]
        assert ann.fn.value == "Dr. Ann Marie Lee PhD"  # FN kept as the iPhone wrote it
        assert ann.n.value.family == "Lee" and ann.n.value.prefix == "Dr."
        assert sorted(e.value for e in ann.contents["email"]) == ["ann@acme.example", "ann@home.example"]
        assert ann.note.value == "Met at the conference, 2019; likes tea.\nSecond line \\ backslash"
        assert "x-socialprofile" in ann.contents  # kept unknown property written back
        emile = by_uid["urn:uuid:6f0c1d3e-emile"]
        assert emile.note.value.startswith("Émile écrit à Zoë: ça va très bien")
        assert emile.impp.value == "xmpp:emile@zola.example"


def test_we_import_a_card_written_by_vobject(tmp_path):
    card = vobject.vCard()
    card.add("fn").value = "Zoë O'Brien-Ñúñez"
    card.add("n").value = vobject.vcard.Name(family="O'Brien-Ñúñez", given="Zoë")
    card.add("uid").value = "vobject-zoe-1"
    email = card.add("email")
    email.value = "zoe@example.org"
    email.type_param = "WORK"
    card.add("tel").value = "+353 1 555 0100"
    card.add("note").value = "Line one, with a comma; and a semicolon\n" + "très long " * 20
    card.add("url").value = "https://zoe.example"
    path = tmp_path / "vobject.vcf"
    path.write_text(card.serialize(), encoding="utf-8")
    db = str(tmp_path / "book.sqlite")

    result = run(tmp_path, [f"import {path}", f"import {path}", "export - vcard4"], "--db", db, "--create")

    assert result.returncode == 0, result.stderr
    assert "1 added, 0 updated, 0 unchanged" in result.stdout
    assert "0 added, 0 updated, 1 unchanged" in result.stdout
    assert "UID:vobject-zoe-1" in result.stdout
    # vobject's card is 3.0: its properties come back as it wrote them, in 4.0's syntax
    assert "EMAIL;TYPE=WORK:zoe@example.org" in result.stdout
    assert "URL:https://zoe.example" in result.stdout

    query = subprocess.run([os.environ["CONTACTSBOOK_BIN"], "query", "--db", db, "zoe"],
                           capture_output=True, text=True)
    assert query.returncode == 0, query.stderr
    lines = query.stdout.splitlines()
    assert lines[1] == "zoe@example.org\tZoë O'Brien-Ñúñez\twork"


def test_query_without_matches_exits_1(tmp_path):
    db = str(tmp_path / "book.sqlite")
    run(tmp_path, ["list"], "--db", db, "--create")
    query = subprocess.run([os.environ["CONTACTSBOOK_BIN"], "query", "--db", db, "nobody"],
                           capture_output=True, text=True)
    assert query.returncode == 1
    assert query.stdout == "No matches\n"


def test_bad_file_import_keeps_what_was_stored(tmp_path):
    db = str(tmp_path / "book.sqlite")
    garbage = tmp_path / "garbage.vcf"
    garbage.write_bytes(b"\xff\xfe\x00garbage\nBEGIN:VCARD\nN:Half;Card\n" + b"X" * 3_000_000)
    result = run(tmp_path, [f"import {FIXTURES}/apple-3.0.vcf", f"import {garbage}", "list"], "--db", db, "--create")
    assert "2 added" in result.stdout
    # One card (cut off by the file's end, after a line that is no card): one card not read
    assert f"error: Nothing imported from {garbage}: 1 card could not be read; 1 line outside any card skipped" \
        in result.stderr
    assert "line 2: the card has no END:VCARD (is the file truncated?)" in result.stderr
    assert "2 contacts" in result.stdout
    assert result.returncode == 1


def import_file(tmp_path, db, content, name="cards.vcf", *options):
    path = tmp_path / name
    path.write_bytes(content)
    return subprocess.run([os.environ["CONTACTSBOOK_BIN"], "import", "--db", db, *options, str(path)],
                          capture_output=True, text=True, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})


def test_one_shot_import_of_real_client_quirks_names_every_change_and_exits_0(tmp_path):
    """A 2.1 file as a Japanese phone writes it (Shift_JIS, CR CR LF), with an AGENT card, a
    comment, a card named by its phone only: everything read, every change named by its line."""
    db = str(tmp_path / "book.sqlite")
    sjis = "安藤 ロイド".encode("shift_jis")
    lines = [b"# phone export", b"BEGIN:VCARD", b"VERSION:2.1", b"FN;CHARSET=SHIFT_JIS:" + sjis,
             b"AGENT:", b"BEGIN:VCARD", b"VERSION:2.1", b"N:Ek;Bo", b"END:VCARD", b"# kept apart", b"END:VCARD",
             b"BEGIN:VCARD", b"VERSION:2.1", b"TEL;CELL:+81 3 0000 0000", b"END:VCARD"]
    result = import_file(tmp_path, db, b"".join(line + b"\r\r\n" for line in lines), "cards.vcf", "--create")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"Imported {tmp_path / 'cards.vcf'}: 2 added, 0 updated, 0 unchanged; "
        "2 cards without a UID of its own given a new one; 5 changes made in reading",
        # The N and FN an export will add to cards without them, named as the import's.
        "  line  2: no N (name parts): an export as vCard 3.0 writes N:ロイド;安藤;;; (3.0 requires N)",
        "  line 10: a comment line, not a property: skipped",
        "  line 12: no FN (display name): an export writes FN:+81 3 0000 0000 (vCard 3.0 and 4.0 require FN); "
        "no N (name parts): an export writes N:;+81 3 0000 0000;;; beside the FN (3.0 requires N; in 4.0 it keeps "
        "the name's parts)",
        '  line 14: the card has no name (N, FN or ORG): named "+81 3 0000 0000" after its TEL',
    ]
    exported = run(tmp_path, ["export - vcard3"], "--db", db)
    assert "FN:安藤 ロイド" in exported.stdout
    assert "AGENT:BEGIN:VCARD\\nVERSION:2.1\\nN:Ek\\;Bo\\nEND:VCARD" in exported.stdout
    assert "FN:+81 3 0000 0000" in exported.stdout
    assert "Bo Ek" not in exported.stdout


def test_one_shot_import_exits_1_only_when_a_file_with_text_gave_no_contact(tmp_path):
    db = str(tmp_path / "book.sqlite")
    garbage = import_file(tmp_path, db, b"this is not a vCard\nnor is this\n", "notes.vcf", "--create")
    assert garbage.returncode == 1
    assert garbage.stdout == ""
    assert garbage.stderr.splitlines() == [
        f"error: Nothing imported from {tmp_path / 'notes.vcf'}: 2 lines outside any card skipped",
        "  line 1: 2 lines outside any card (expected BEGIN:VCARD): skipped",
    ]
    empty = import_file(tmp_path, db, b"\r\n\r\n", "empty.vcf")
    assert empty.returncode == 0, empty.stderr
    assert empty.stdout == f"Imported {tmp_path / 'empty.vcf'}: 0 added, 0 updated, 0 unchanged\n"
    card = b"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u1\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nEND:VCARD\r\n"
    assert import_file(tmp_path, db, card, "one.vcf").returncode == 0
    again = import_file(tmp_path, db, card, "one.vcf")
    assert again.returncode == 0, again.stderr
    assert again.stdout == f"Imported {tmp_path / 'one.vcf'}: 0 added, 0 updated, 1 unchanged\n"


def test_a_website_set_in_the_form_is_shown_searched_and_written_to_vcard_and_csv(tmp_path):
    # Issue 25's example of a field added by one table entry, end to end as a person meets it
    db = str(tmp_path / "book.sqlite")
    csv = tmp_path / "book.csv"
    added = run(tmp_path, ["add", "given Ann", "family Lee", "website work https://ann.example/blog", "save"],
                "--db", db, "--create")
    assert added.returncode == 0, added.stderr
    assert "website 1 (work): https://ann.example/blog" in added.stdout

    found = run(tmp_path, ["search ann.example", "show 1"], "--db", db)
    assert "website: https://ann.example/blog" in found.stdout  # the list's Matched column
    assert "Website (work)  https://ann.example/blog" in found.stdout

    exported = run(tmp_path, ["export - vcard3", "export - vcard4", f"export {csv} csv"], "--db", db)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.count("URL;TYPE=work:https://ann.example/blog\n") == 2  # 3.0 and 4.0
    header, row = csv.read_text(encoding="utf-8").splitlines()[:2]
    assert row.split(",")[header.split(",").index("websites")] == "work:https://ann.example/blog"
