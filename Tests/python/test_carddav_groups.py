"""Groups synced with real CardDAV servers (Radicale, Xandikos, SabreDAV; started by the
fixtures): a group made here appears on the server in its convention and comes back unchanged;
a group in Apple's 3.0 form put on the server appears here as a group (never a person); members
as a set in the three-way merge; a group deleted on either side goes on the other."""
from carddav_servers import vcard
from test_carddav_sync import Book, summary

APPLE_GROUP = ("BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//Apple Inc.//macOS 14.4//EN\r\nN:Climbing\r\nFN:Climbing\r\n"
               "X-ADDRESSBOOKSERVER-KIND:group\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ann\r\n"
               "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:elsewhere\r\nREV:2024-04-02T10:11:12Z\r\nUID:climbing\r\nEND:VCARD\r\n")


def groups(book):
    return book.session("groups")


def test_a_group_made_here_goes_up_in_the_servers_convention_and_comes_back_unchanged(carddav_server, tmp_path):
    carddav_server.put("ann.vcf", vcard("ann", "Ann", "Lee", "EMAIL:ann@example.org"))
    carddav_server.put("bob.vcf", vcard("bob", "Bob", "Ray", "EMAIL:bob@example.org"))
    book = Book(tmp_path)
    book.add_account(carddav_server)
    assert summary(book.sync()) == "home: pulled 2, pushed 0, merged 0, conflicts 0"
    book.session("group new Family", "group add Family ann bob")

    assert summary(book.sync()) == "home: pulled 0, pushed 1, merged 0, conflicts 0"

    on_server = [card for card in carddav_server.cards().values() if "Family" in card]
    assert len(on_server) == 1
    card = on_server[0]
    # Radicale and Xandikos take 4.0 (KIND/MEMBER); SabreDAV 1.8 is a 3.0 server (Apple's form).
    assert ("KIND:group" in card and "MEMBER:urn:uuid:ann" in card) or "X-ADDRESSBOOKSERVER-KIND:group" in card
    assert "urn:uuid:bob" in card
    # Another book pulls it: a group with both members, not a person
    other = Book(tmp_path, "other")
    other.add_account(carddav_server)
    assert summary(other.sync()) == "home: pulled 3, pushed 0, merged 0, conflicts 0"
    assert "Family        2" in groups(other)
    assert "2 contacts" in other.session("list")
    # Nothing changed: nothing goes up or comes down again
    assert summary(book.sync()) == "home: pulled 0, pushed 0, merged 0, conflicts 0"
    assert summary(other.sync()) == "home: pulled 0, pushed 0, merged 0, conflicts 0"


def test_an_apple_group_on_the_server_appears_here_and_members_merge_as_a_set(carddav_server, tmp_path):
    carddav_server.put("ann.vcf", vcard("ann", "Ann", "Lee", "EMAIL:ann@example.org"))
    carddav_server.put("bob.vcf", vcard("bob", "Bob", "Ray", "EMAIL:bob@example.org"))
    carddav_server.put("cy.vcf", vcard("cy", "Cy", "Dee", "EMAIL:cy@example.org"))
    carddav_server.put("climbing.vcf", APPLE_GROUP)
    book = Book(tmp_path)
    book.add_account(carddav_server)
    assert summary(book.sync()) == "home: pulled 4, pushed 0, merged 0, conflicts 0"
    listed = book.session("list")
    assert "3 contacts" in listed and "Climbing" not in listed
    assert "Climbing  2 (1 in this book)" in groups(book)
    assert "Ann Lee" in book.session("list --group climbing")

    # Here Bob joins; there (as Apple writes it) Cy joins and the member elsewhere leaves
    book.session("group add Climbing bob")
    there, etag = carddav_server.get("climbing.vcf")
    there = there.replace("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:elsewhere\r\n", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:cy\r\n")
    carddav_server.put("climbing.vcf", there, etag)

    assert summary(book.sync()) == "home: pulled 1, pushed 1, merged 0, conflicts 0"
    members = book.session("list --group climbing")
    assert "Ann Lee" in members and "Bob Ray" in members and "Cy Dee" in members
    card, _ = carddav_server.get("climbing.vcf")
    assert "urn:uuid:bob" in card and "urn:uuid:cy" in card and "urn:uuid:ann" in card and "elsewhere" not in card
    # What the card had that we do not model stays
    assert "PRODID:-//Apple Inc.//macOS 14.4//EN" in card

    # Deleted there: gone here; made again here and deleted here: gone there
    carddav_server.delete("climbing.vcf")
    assert summary(book.sync()) == "home: pulled 1, pushed 0, merged 0, conflicts 0"
    assert "No groups yet" in groups(book)
    book.session("group new Team", "group add Team ann")
    book.sync()
    assert any("Team" in c for c in carddav_server.cards().values())
    book.session("group delete Team")
    assert summary(book.sync()) == "home: pulled 0, pushed 1, merged 0, conflicts 0"
    assert not any("Team" in c for c in carddav_server.cards().values())
