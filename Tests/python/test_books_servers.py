"""Several address books (issue 30) end to end against Xandikos and Debian's SabreDAV 1.8 (Radicale's
own are in test_books.py): two books on one account taken with `account add --all-books`, `move`
between them (a PUT to the new book, then a DELETE) and its `undo` (before a sync: nothing sent; after
one: the move back, a PUT then a DELETE), a group made in a named book (`group new --book`) going to
that book in the server's convention and coming back unchanged, and read-only books: SabreDAV's from
RFC 3744 privileges (its ACL plugin granting read alone, `current-user-privilege-set` without write),
Xandikos's (which grants `all` on every collection) by the person's mark."""
import json

import pytest

from carddav_servers import Server, sabredav_missing, vcard
from test_carddav_sync import Book, summary


@pytest.fixture(params=["xandikos", "sabredav"])
def two_books(request, tmp_path):
    """A server with alice's first book and `team`."""
    if request.param.startswith("sabredav") and sabredav_missing():
        pytest.skip(sabredav_missing())
    server = Server(request.param, tmp_path, books=("team",))
    yield server
    server.stop()


def put(server, book, name, text):
    status, _, _ = server.request("PUT", server.book_url(book) + name, text.encode(),
                                  {"Content-Type": "text/vcard; charset=utf-8", "If-None-Match": "*"})
    assert status in (201, 204), status


def add_all_books(book, server, name="home"):
    args = ["account", "add", name, server.base, "--user", "alice", "--all-books"]
    if server.password_command:
        args += ["--password-command", server.password_command]
    result = book.run(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def list_rows(book, *args):
    result = book.run("list", "--json", *args)
    assert result.returncode in (0, 1), result.stderr
    listing = next(v["value"] for v in json.loads(result.stdout)["displayed"] if v["kind"] == "contactList")
    return {row["name"]: row.get("book") for row in listing["rows"]}


def cards_named(server, book, name):
    return [card for card in server.in_book(book, "cards").values() if f"FN:{name}" in card]


def quiet(book, first):
    return [f"home (book {first}): pulled 0, pushed 0, merged 0, conflicts 0",
            "home (book team): pulled 0, pushed 0, merged 0, conflicts 0"]


def test_two_books_a_move_and_its_undo_and_a_group_in_a_named_book(two_books, tmp_path):
    server, first = two_books, two_books.first_book
    put(server, first, "ann.vcf", vcard("ann", "Ann", "Lee", "EMAIL:ann@example.org"))
    put(server, "team", "bob.vcf", vcard("bob", "Bob", "Ray", "EMAIL:bob@team.example"))
    book = Book(tmp_path)

    added = add_all_books(book, server)
    assert f"book {first}:" in added and "book team:" in added
    # Which book is listed first is the server's order: new contacts go to the first book, named here.
    assert book.run("book", "default", first).returncode == 0
    assert summary(book.sync()).splitlines() == [f"home (book {first}): pulled 1, pushed 0, merged 0, conflicts 0",
                                                 "home (book team): pulled 1, pushed 0, merged 0, conflicts 0"]
    assert list_rows(book) == {"Ann Lee": first, "Bob Ray": "team"}

    # A move, then the sync: a PUT to team, then a DELETE from the first book.
    moved = book.run("move", "Ann Lee", "team")
    assert moved.returncode == 0, moved.stderr
    assert summary(book.sync()).splitlines() == [f"home (book {first}): pulled 0, pushed 1, merged 0, conflicts 0",
                                                 "home (book team): pulled 0, pushed 1, merged 0, conflicts 0"]
    assert cards_named(server, first, "Ann Lee") == [] and len(cards_named(server, "team", "Ann Lee")) == 1

    # Its undo after that sync is a move back: here at once, on the server a PUT then a DELETE.
    history = book.run("history").stdout
    assert "moved Ann Lee to team" in history and f"#1: book {first} → team" in history
    undone = book.run("undo")
    assert undone.returncode == 0, undone.stderr
    assert "Undid: moved Ann Lee to team" in undone.stdout
    assert list_rows(book) == {"Ann Lee": first, "Bob Ray": "team"}
    assert summary(book.sync()).splitlines() == [f"home (book {first}): pulled 0, pushed 1, merged 0, conflicts 0",
                                                 "home (book team): pulled 0, pushed 1, merged 0, conflicts 0"]
    assert len(cards_named(server, first, "Ann Lee")) == 1 and cards_named(server, "team", "Ann Lee") == []
    assert summary(book.sync()).splitlines() == quiet(book, first)

    # Undone before any sync: the card is linked as it was, and nothing goes to either book.
    assert book.run("move", "Bob Ray", first).returncode == 0
    assert book.run("undo").returncode == 0
    assert summary(book.sync()).splitlines() == quiet(book, first)
    assert len(cards_named(server, "team", "Bob Ray")) == 1 and cards_named(server, first, "Bob Ray") == []
    assert sorted(list_rows(book)) == ["Ann Lee", "Bob Ray"]

    # A group made for team goes to team, in the server's convention, and nowhere else.
    made = book.run("group", "new", "Family", "--book", "team")
    assert made.returncode == 0, made.stdout + made.stderr
    assert book.run("group", "add", "Family", "Ann Lee", "Bob Ray").returncode == 0
    assert summary(book.sync()).splitlines()[1] == "home (book team): pulled 0, pushed 1, merged 0, conflicts 0"
    on_team = cards_named(server, "team", "Family")
    assert len(on_team) == 1 and cards_named(server, first, "Family") == []
    if server.kind == "xandikos":  # a 4.0 server: KIND/MEMBER
        assert "KIND:group" in on_team[0] and "MEMBER:urn:uuid:ann" in on_team[0]
    else:  # SabreDAV 1.8 speaks 3.0: Apple's form
        assert "X-ADDRESSBOOKSERVER-KIND:group" in on_team[0] and "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ann" in on_team[0]
    assert "urn:uuid:bob" in on_team[0]
    # Another file pulls it back: the same group, both members, not a person; nothing more to do on either side.
    other = Book(tmp_path, "other")
    add_all_books(other, server)
    summary(other.sync())
    assert "Family        2" in other.session("groups")
    assert sorted(list_rows(other)) == ["Ann Lee", "Bob Ray"]
    assert summary(book.sync()).splitlines() == quiet(book, first)
    assert summary(other.sync()).splitlines() == quiet(other, first)
    assert cards_named(server, "team", "Family") == on_team

    # The person marks team read-only: a group for it is refused, naming it, before anything is made.
    assert book.run("book", "readonly", "team", "on").returncode == 0
    refused = book.run("group", "new", "Staff", "--book", "team")
    assert refused.returncode == 1
    assert "book team is read-only (marked read-only)" in refused.stdout + refused.stderr
    assert "Staff" not in book.session("groups")


def test_a_book_sabredav_grants_only_read_is_read_only_and_a_new_group_is_refused_there(tmp_path):
    if sabredav_missing():
        pytest.skip(sabredav_missing())
    server = Server("sabredav", tmp_path, books=("team",))
    try:
        put(server, "team", "bob.vcf", vcard("bob", "Bob", "Ray", "EMAIL:bob@team.example"))
        server.set_read_only("team")
        book = Book(tmp_path)

        added = add_all_books(book, server)
        assert "book team:" in added and "read-only: the server does not let us write it" in added
        summary(book.sync())
        books = {b["name"]: b for b in next(v["value"] for v in json.loads(book.run("books", "--json").stdout)["displayed"]
                                            if v["kind"] == "bookList")["books"]}
        assert books["team"]["readOnly"] == "server" and "readOnly" not in books["default"]
        assert books["default"]["isDefault"]

        # Searched and queried; every edit, and a group for it, refused naming it.
        assert "Bob Ray" in book.run("search", "bob").stdout
        assert "bob@team.example" in book.run("query", "bob").stdout
        message = "is in book team, which is read-only (the server does not let us write it); nothing was changed"
        for args in (["edit", "Bob Ray", "--title", "Boss"], ["move", "Bob Ray", "default"]):
            refused = book.run(*args)
            assert refused.returncode == 1 and message in refused.stdout + refused.stderr, args
        refused = book.run("group", "new", "Staff", "--book", "team")
        assert refused.returncode == 1
        assert "book team is read-only (the server does not let us write it)" in refused.stdout + refused.stderr

        # The server takes write away from the default book too: found at the next sync; a new group,
        # which goes to the default book, is refused there, naming it.
        server.set_read_only("team", "default")
        summary(book.sync())
        refused = book.run("group", "new", "Family")
        assert refused.returncode == 1
        assert ("new groups go to book default, which is read-only (the server does not let us write it)"
                in refused.stdout + refused.stderr)
        assert "Family" not in book.session("groups")

        # Write given back on team: a group named for it goes there, in Apple's form (a 3.0 server).
        server.set_read_only("default")
        summary(book.sync())
        made = book.run("group", "new", "Family", "--book", "team")
        assert made.returncode == 0, made.stdout + made.stderr
        assert book.run("group", "add", "Family", "Bob Ray").returncode == 0
        assert "home (book team): pulled 0, pushed 1, merged 0, conflicts 0" in summary(book.sync()).splitlines()
        family = cards_named(server, "team", "Family")
        assert len(family) == 1 and "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:bob" in family[0]
        assert cards_named(server, "default", "Family") == []
    finally:
        server.stop()
