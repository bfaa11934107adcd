"""Issue 26, items 3 and 4: UIDs are scoped to their account and address book. A card from one
account never changes a contact linked to another; one UID on two servers is two contacts; two
cards with one UID in one address book are both kept (a warning names both), and the sync goes on."""
import pytest

from hostile_dav import HostileDAV, card
from test_carddav_sync import Book, summary


@pytest.fixture
def home():
    server = HostileDAV()
    yield server
    server.stop()


@pytest.fixture
def work():
    server = HostileDAV(book_path="/work/book/")
    yield server
    server.stop()


def add(book, name, server):
    result = book.run("account", "add", name, server.base, "--user", "alice", "--password-command", "echo secret")
    assert result.returncode == 0, result.stderr


def rows(book):
    """(uid, full name, notes, account or None) of every contact, by id."""
    return book.sql("""SELECT c.uid, c.formatted_name, c.given || ' ' || c.family, c.notes, i.account
                       FROM contact c LEFT JOIN sync_item i ON i.contact_id = c.id ORDER BY c.id""")


def puts(server):
    return [path for method, path, _ in server.seen() if method == "PUT"]


def test_a_card_from_another_account_with_a_contacts_uid_never_takes_it_over(home, work, tmp_path):
    home.put("/alice/book/ann.vcf", card("ann-1", "Ann Lee", "EMAIL:ann@home.example"))
    book = Book(tmp_path)
    add(book, "home", home)
    assert summary(book.sync("home")) == "home: pulled 1, pushed 0, merged 0, conflicts 0"
    ann_on_home = home.cards["/alice/book/ann.vcf"]
    # Another server names Ann's UID, with another name and email.
    work.put("/work/book/x.vcf", card("ann-1", "Mallory Evil", "EMAIL:mallory@evil.example"))
    add(book, "work", work)

    assert summary(book.sync("work")) == "work: pulled 1, pushed 0, merged 0, conflicts 0"
    # Ann is as she was, still home's; the card is a contact of its own, work's.
    assert [(uid, name, account) for uid, _, name, _, account in rows(book)] == [
        ("ann-1", "Ann Lee", "home"), ("ann-1", "Mallory Evil", "work")]
    # Home's next sync sends nothing: nothing of the injected card reaches home's server...
    assert summary(book.sync("home")) == "home: pulled 0, pushed 0, merged 0, conflicts 0"
    assert home.cards["/alice/book/ann.vcf"] == ann_on_home
    assert puts(home) == []
    # ...and nothing of Ann reaches work's.
    assert summary(book.sync("work")) == "work: pulled 0, pushed 0, merged 0, conflicts 0"
    assert puts(work) == []
    # The two are shown as duplicates, by their UID.
    found = book.run("duplicates")
    assert found.returncode == 0, found.stderr
    assert "same UID ann-1" in found.stdout
    assert "Ann Lee" in found.stdout and "Mallory Evil" in found.stdout
    # Named by that UID, neither is chosen silently.
    shown = book.run(commands=["show ann-1"])
    assert "Ann Lee" in shown.stdout + shown.stderr and "Mallory Evil" in shown.stdout + shown.stderr
    # An export writes the UID once: the second card gets one of its own, the same each time.
    exported = book.contacts()
    assert sorted(c.fn.value for c in exported.values()) == ["Ann Lee", "Mallory Evil"]
    assert exported["ann-1"].fn.value == "Ann Lee"
    assert book.contacts().keys() == exported.keys()
    # That file imported back finds both (each its own contact): nothing added.
    imported = book.session(f"import {tmp_path / 'export.vcf'}")
    assert ": 0 added, " in imported, imported
    assert [(uid, name) for uid, _, name, _, _ in rows(book)] == [("ann-1", "Ann Lee"), ("ann-1", "Mallory Evil")]


def test_two_honest_servers_with_one_uid_do_not_ping_pong_and_notes_do_not_grow(home, work, tmp_path):
    # The same person on two servers, edited apart: a title each, and a note on one.
    home.put("/alice/book/ann.vcf", card("ann-1", "Ann Lee", "TITLE:Chief", "NOTE:met in Lisbon"))
    work.put("/work/book/ann.vcf", card("ann-1", "Ann Lee", "TITLE:Boss"))
    book = Book(tmp_path)
    add(book, "home", home)
    add(book, "work", work)
    first = book.sync()
    assert first.returncode == 0, first.stderr
    assert first.stdout == ("home: pulled 1, pushed 0, merged 0, conflicts 0\n"
                            "work: pulled 1, pushed 0, merged 0, conflicts 0\n")
    cards = (dict(home.cards), dict(work.cards))
    before = rows(book)

    for _ in range(4):
        again = book.sync()
        assert again.stdout == ("home: pulled 0, pushed 0, merged 0, conflicts 0\n"
                                "work: pulled 0, pushed 0, merged 0, conflicts 0\n"), again.stdout + again.stderr

    # Two contacts, each its server's, notes as they came (no conflict lines), nothing sent.
    assert rows(book) == before
    assert [(name, notes, account) for _, _, name, notes, account in before] == [
        ("Ann Lee", "met in Lisbon", "home"), ("Ann Lee", "", "work")]
    assert (home.cards, work.cards) == cards
    assert puts(home) == [] and puts(work) == []


def test_two_cards_with_one_uid_in_one_book_are_both_kept_named_and_the_rest_is_pulled(home, tmp_path):
    home.put("/alice/book/a.vcf", card("twin", "Ann One"))
    home.put("/alice/book/b.vcf", card("twin", "Ann Two"))
    home.put("/alice/book/c.vcf", card("cy", "Cy Dee"))
    book = Book(tmp_path)
    add(book, "home", home)

    first = book.sync()

    # Both kept, the second linked by its href, a warning naming both; the rest pulled.
    assert summary(first) == ("home: pulled 3, pushed 0, merged 0, conflicts 0; 2 cards with the UID twin, "
                              "kept as two contacts: /alice/book/a.vcf and /alice/book/b.vcf")
    assert book.sql("SELECT href FROM sync_item i JOIN contact c ON c.id = i.contact_id "
                    "ORDER BY c.formatted_name, c.given") == [("/alice/book/a.vcf",), ("/alice/book/b.vcf",),
                                                            ("/alice/book/c.vcf",)]
    # Later edits of each go to its own href.
    book.edit("Ann One", "title First")
    book.edit("Ann Two", "title Second")
    assert summary(book.sync()) == "home: pulled 0, pushed 2, merged 0, conflicts 0"
    assert "TITLE:First" in home.cards["/alice/book/a.vcf"] and "Second" not in home.cards["/alice/book/a.vcf"]
    assert "TITLE:Second" in home.cards["/alice/book/b.vcf"] and "First" not in home.cards["/alice/book/b.vcf"]
    # A card arriving later with a UID already linked is added beside it, named too.
    home.put("/alice/book/d.vcf", card("cy", "Cy Again"))
    assert summary(book.sync()) == ("home: pulled 1, pushed 0, merged 0, conflicts 0; 2 cards with the UID cy, "
                                    "kept as two contacts: /alice/book/c.vcf and /alice/book/d.vcf")
    assert sorted(name for _, _, name, _, _ in rows(book)) == ["Ann One", "Ann Two", "Cy Again", "Cy Dee"]
    # And nothing more is said once both are linked.
    assert summary(book.sync()) == "home: pulled 0, pushed 0, merged 0, conflicts 0"


def test_a_local_contact_linked_nowhere_is_still_matched_by_its_uid_at_the_first_sync(home, tmp_path):
    # README: a card whose UID a contact linked to no account has is merged into it, not added twice.
    (tmp_path / "ann.vcf").write_text(card("ann-1", "Ann Lee", "TITLE:Chief"))
    book = Book(tmp_path)
    book.session(f"import {tmp_path / 'ann.vcf'}")
    home.put("/alice/book/ann.vcf", card("ann-1", "Ann Lee", "TITLE:Chief", "EMAIL:ann@home.example"))
    add(book, "home", home)

    assert summary(book.sync()) == "home: pulled 0, pushed 0, merged 1, conflicts 0"

    assert [(uid, name, account) for uid, _, name, _, account in rows(book)] == [("ann-1", "Ann Lee", "home")]
