"""Several address books on one account and read-only books (issue 30), end to end against
Radicale started here: two books synced each with its own token, the book shown and filtered,
new contacts going to the default book, `move` between books (a PUT to the new one, then a
DELETE from the old), and a book Radicale's `rights` file makes read-only: searched and shown,
every edit refused naming it, still pulled."""
import json
import subprocess
import sys

import pytest

from carddav_servers import MKCOL, PASSWORD, USER, Server, vcard, wait_for_port
from test_carddav_sync import Book, summary

# Radicale's rights, first matching section wins: alice reads `team` only, writes the rest of her
# own collections. `r` for address books, `R` for the principal and root (Radicale's letters).
READ_ONLY_TEAM = f"""[team]
user: {USER}
collection: {{user}}/team(/.*)?
permissions: r

[own]
user: {USER}
collection: {{user}}(/.*)?
permissions: RrWw

[root]
user: .+
collection:
permissions: R
"""


class TwoBooks:
    """Radicale with alice's `book` (made by `Server`) and `team`, each holding cards."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path
        self.server = Server("radicale", tmp_path)
        self.team = f"{self.server.base}{USER}/team/"
        status, _, _ = self.server.request("MKCOL", self.team, MKCOL)
        assert status == 201, status

    def put(self, book, name, text):
        status, _, _ = self.server.request("PUT", book + name, text.encode(),
                                           {"Content-Type": "text/vcard; charset=utf-8", "If-None-Match": "*"})
        assert status in (201, 204), status

    def names(self, book):
        saved, self.server.book = self.server.book, book
        try:
            return self.server.names()
        finally:
            self.server.book = saved

    def get(self, book, name):
        status, _, body = self.server.request("GET", book + name)
        return body.decode() if status == 200 else None

    def restart_with_rights(self, rights):
        """Radicale reads its rights file at start: stopped, then started again on the same port."""
        root = self.tmp_path / "radicale"
        (root / "rights").write_text(rights)
        config = (root / "config").read_text().replace("[rights]\ntype = owner_only\n",
                                                       f"[rights]\ntype = from_file\nfile = {root / 'rights'}\n")
        (root / "config").write_text(config)
        self.server.stop()
        self.server.log = open(root / "server.log", "a")
        self.server.process = subprocess.Popen([sys.executable, "-m", "radicale", "--config", str(root / "config")],
                                               stdout=self.server.log, stderr=subprocess.STDOUT, cwd=root)
        wait_for_port(self.server.port, self.server.process)

    def stop(self):
        self.server.stop()


@pytest.fixture
def two_books(tmp_path):
    books = TwoBooks(tmp_path)
    yield books
    books.stop()


def add_all_books(book, server, name="home"):
    result = book.run("account", "add", name, server.base, "--user", USER, "--password-command", f"echo {PASSWORD}",
                      "--all-books")
    assert result.returncode == 0, result.stderr
    return result.stdout


def books_json(book):
    result = book.run("books", "--json")
    assert result.returncode == 0, result.stderr
    listing = next(v["value"] for v in json.loads(result.stdout)["displayed"] if v["kind"] == "bookList")
    return {b["name"]: b for b in listing["books"]}


def list_rows(book, *args):
    result = book.run("list", "--json", *args)
    assert result.returncode in (0, 1), result.stderr
    listing = next(v["value"] for v in json.loads(result.stdout)["displayed"] if v["kind"] == "contactList")
    return {row["name"]: row.get("book") for row in listing["rows"]}


def test_two_books_of_one_account_sync_each_and_a_move_puts_then_deletes(two_books, tmp_path):
    server = two_books.server
    two_books.put(server.book, "ann.vcf", vcard("ann", "Ann", "Lee"))
    two_books.put(two_books.team, "bob.vcf", vcard("bob", "Bob", "Ray", "EMAIL:bob@team.example"))
    book = Book(tmp_path)

    added = add_all_books(book, server)
    assert "book book:" in added and "book team:" in added

    results = book.sync().stdout.strip().splitlines()
    assert results == ["home (book book): pulled 1, pushed 0, merged 0, conflicts 0",
                       "home (book team): pulled 1, pushed 0, merged 0, conflicts 0"]
    books = books_json(book)
    assert {name: (b["account"] if "account" in b else None, b["contacts"]) for name, b in books.items()} == {
        "local": (None, 0), "book": ("home", 1), "team": ("home", 1)}
    assert books["book"]["isDefault"] and "readOnly" not in books["team"]

    # The list names each contact's book; `--book` filters.
    assert list_rows(book) == {"Ann Lee": "book", "Bob Ray": "team"}
    assert list_rows(book, "--book", "team") == {"Bob Ray": "team"}
    shown = book.run("show", "Bob Ray").stdout
    assert "Book" in shown and "team" in shown

    # A new contact goes to the default book, on the server at the next sync.
    book.session("add", "given Cy", "family Dee", "save")
    assert summary(book.sync()).splitlines()[0] == "home (book book): pulled 0, pushed 1, merged 0, conflicts 0"
    assert len(two_books.names(server.book)) == 2

    # Ann moves to team: here at once; on the server, put in team, then deleted from book.
    moved = book.run("move", "Ann Lee", "team")
    assert moved.returncode == 0, moved.stderr
    assert "Moved Ann Lee to team" in moved.stdout
    assert list_rows(book, "--book", "team") == {"Ann Lee": "team", "Bob Ray": "team"}
    assert summary(book.sync()).splitlines() == [
        "home (book book): pulled 0, pushed 1, merged 0, conflicts 0",
        "home (book team): pulled 0, pushed 1, merged 0, conflicts 0"]
    assert "ann.vcf" not in two_books.names(server.book)
    team_cards = [two_books.get(two_books.team, n) for n in two_books.names(two_books.team)]
    assert sum("FN:Ann Lee" in card for card in team_cards) == 1
    # Nothing more to do, and no card came back as a new contact.
    assert summary(book.sync()).splitlines() == [
        "home (book book): pulled 0, pushed 0, merged 0, conflicts 0",
        "home (book team): pulled 0, pushed 0, merged 0, conflicts 0"]
    assert sorted(list_rows(book)) == ["Ann Lee", "Bob Ray", "Cy Dee"]


def test_a_book_the_server_does_not_let_us_write_is_searched_and_refuses_every_edit(two_books, tmp_path):
    server = two_books.server
    two_books.put(server.book, "ann.vcf", vcard("ann", "Ann", "Lee"))
    two_books.put(two_books.team, "bob.vcf", vcard("bob", "Bob", "Ray", "EMAIL:bob@team.example"))
    two_books.restart_with_rights(READ_ONLY_TEAM)
    book = Book(tmp_path)

    added = add_all_books(book, server)
    assert "book team:" in added and "read-only: the server does not let us write it" in added
    summary(book.sync())
    assert books_json(book)["team"]["readOnly"] == "server"

    # Searched, shown, listed, queried for mail.
    assert list_rows(book, "--book", "team") == {"Bob Ray": "team"}
    found = book.run("search", "bob")
    assert found.returncode == 0 and "Bob Ray" in found.stdout
    query = book.run("query", "bob")
    assert "bob@team.example" in query.stdout

    # Every edit refused before it starts, naming the book; nothing changed.
    message = "is in book team, which is read-only (the server does not let us write it); nothing was changed"
    for args in (["edit", "Bob Ray", "--title", "Boss"], ["delete", "Bob Ray", "--yes"], ["move", "Bob Ray", "book"]):
        refused = book.run(*args)
        assert refused.returncode == 1, args
        assert message in refused.stdout + refused.stderr, (args, refused.stdout, refused.stderr)
    session = book.run(commands=["show Bob Ray", "edit"])
    assert message in session.stdout + session.stderr
    merged = book.run(commands=['merge "Ann Lee" "Bob Ray"'])
    assert message in merged.stdout + merged.stderr
    assert sorted(list_rows(book)) == ["Ann Lee", "Bob Ray"]

    # Copied out: a new contact in a writable book, the original still in team.
    copied = book.run("copy", "Bob Ray", "book")
    assert copied.returncode == 0, copied.stderr
    assert "Copied Bob Ray to book" in copied.stdout
    assert list_rows(book, "--book", "book") == {"Ann Lee": "book", "Bob Ray": "book"}
    assert list_rows(book, "--book", "team") == {"Bob Ray": "team"}

    # Still pulled: a change on the server comes down.
    two_books.restart_with_rights(READ_ONLY_TEAM.replace("permissions: r\n", "permissions: rw\n", 1))
    status, headers, _ = server.request("GET", two_books.team + "bob.vcf")
    etag = headers.get("ETag") or headers.get("Etag")
    status, _, _ = server.request("PUT", two_books.team + "bob.vcf",
                                  vcard("bob", "Bob", "Ray", "TITLE:Lead").encode(),
                                  {"Content-Type": "text/vcard; charset=utf-8", "If-Match": etag})
    assert status in (201, 204)
    two_books.restart_with_rights(READ_ONLY_TEAM)
    lines = summary(book.sync()).splitlines()
    assert "home (book team): pulled 1, pushed 0, merged 0, conflicts 0" in lines
    team = json.loads(book.run("list", "--json", "--book", "team").stdout)["displayed"][0]["value"]["rows"]
    assert "Lead" in book.run("show", str(team[0]["id"])).stdout


def test_a_group_made_for_a_book_that_turns_read_only_before_its_push_is_refused_naming_it(two_books, tmp_path):
    server = two_books.server
    two_books.put(two_books.team, "bob.vcf", vcard("bob", "Bob", "Ray"))
    book = Book(tmp_path)
    add_all_books(book, server)
    summary(book.sync())
    made = book.run("group", "new", "Team club", "--book", "team")
    assert made.returncode == 0, made.stderr
    # The server takes write away before the group was ever pushed: the sync learns it and pushes nothing there.
    two_books.restart_with_rights(READ_ONLY_TEAM)
    summary(book.sync())
    assert books_json(book)["team"]["readOnly"] == "server"
    message = "group Team club is in book team, which is read-only (the server does not let us write it); nothing was changed"
    for args in (["group", "add", "Team club", "Bob Ray"], ["group", "rename", "Team club", "Crew"],
                 ["group", "delete", "Team club"]):
        refused = book.run(*args)
        assert refused.returncode == 1, args
        assert message in refused.stdout + refused.stderr, (args, refused.stdout, refused.stderr)
    assert "Team club" in book.run("groups").stdout
    assert two_books.names(two_books.team) == ["bob.vcf"]
    # Writable again: the group is changed, and pushed to team at the next sync.
    two_books.restart_with_rights(READ_ONLY_TEAM.replace("permissions: r\n", "permissions: rw\n", 1))
    summary(book.sync())
    added = book.run("group", "add", "Team club", "Bob Ray")
    assert added.returncode == 0, added.stderr
    summary(book.sync())
    assert len(two_books.names(two_books.team)) == 2


def test_a_book_marked_read_only_refuses_edits_until_unmarked(two_books, tmp_path):
    server = two_books.server
    two_books.put(two_books.team, "bob.vcf", vcard("bob", "Bob", "Ray"))
    book = Book(tmp_path)
    add_all_books(book, server)
    summary(book.sync())

    marked = book.run("book", "readonly", "team", "on")
    assert marked.returncode == 0 and "Book team: read-only." in marked.stdout
    refused = book.run("edit", "Bob Ray", "--title", "Boss")
    assert refused.returncode == 1
    assert "is in book team, which is read-only (marked read-only: 'contactsbook book readonly team off' lifts it)" \
        in refused.stdout + refused.stderr
    # The default book, where new contacts go, cannot be marked.
    assert book.run("book", "readonly", "book", "on").returncode == 1
    assert book.run("book", "readonly", "nope", "on").returncode == 1

    assert book.run("book", "readonly", "team", "off").returncode == 0
    assert book.run("edit", "Bob Ray", "--title", "Boss").returncode == 0
    assert summary(book.sync()).splitlines()[1] == "home (book team): pulled 0, pushed 1, merged 0, conflicts 0"


def test_one_book_accounts_see_no_book_column_and_can_name_several_books(two_books, tmp_path):
    server = two_books.server
    two_books.put(server.book, "ann.vcf", vcard("ann", "Ann", "Lee"))
    book = Book(tmp_path)
    # Several books on the server: one must be chosen, or all taken.
    refused = book.run("account", "add", "home", server.base, "--user", USER, "--password-command", f"echo {PASSWORD}")
    assert refused.returncode == 1 and "--all-books" in refused.stderr
    chosen = book.run("account", "add", "home", server.base, "--user", USER, "--password-command", f"echo {PASSWORD}",
                      "--book", "book")
    assert chosen.returncode == 0, chosen.stderr
    assert summary(book.sync()) == "home: pulled 1, pushed 0, merged 0, conflicts 0"
    listed = book.run("list")
    assert "Book" not in listed.stdout and "Ann Lee" in listed.stdout
    assert list_rows(book) == {"Ann Lee": None}
    assert list(books_json(book)) == ["local", "home"]


def test_json_rpc_and_mcp_carry_the_book(two_books, tmp_path):
    import anyio
    import jsonschema
    from rpc_client import binary, isolated_env
    from test_mcp import client

    server = two_books.server
    two_books.put(server.book, "ann.vcf", vcard("ann", "Ann", "Lee"))
    two_books.put(two_books.team, "bob.vcf", vcard("bob", "Bob", "Ray"))
    book = Book(tmp_path)
    add_all_books(book, server)
    summary(book.sync())

    # JSON-RPC: the list filtered by book, its rows naming it; the books with their counts.
    requests = [{"jsonrpc": "2.0", "id": 1, "method": "contacts/list", "params": {"book": "team"}},
                {"jsonrpc": "2.0", "id": 2, "method": "contacts/books"},
                {"jsonrpc": "2.0", "id": 3, "method": "contacts/list", "params": {"book": "nope"}}]
    answered = subprocess.run([binary(), "--rpc", "--db", book.db], input="".join(json.dumps(r) + "\n" for r in requests),
                              capture_output=True, text=True, timeout=60, env=isolated_env(tmp_path))
    responses = {m["id"]: m for m in map(json.loads, answered.stdout.splitlines()) if "id" in m}
    listing = responses[1]["result"]["displayed"][0]["value"]
    assert [(row["name"], row["book"]) for row in listing["rows"]] == [("Bob Ray", "team")]
    assert listing["book"] == "team"
    books = responses[2]["result"]["displayed"][0]["value"]["books"]
    assert [(b["name"], b["contacts"]) for b in books] == [("local", 0), ("book", 1), ("team", 1)]
    assert responses[3]["error"]["message"] == "there is no book named nope"

    # MCP: search rows and a contact's record carry the book, within the tools' output schemas.
    async def body():
        async with client(tmp_path, "legacy") as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            found = await c.call_tool("search", {"text": "ray"})
            jsonschema.validate(found.structured_content, tools["search"].output_schema)
            assert [row["book"] for row in found.structured_content["rows"]] == ["team"]
            shown = await c.call_tool("get", {"contact": "Bob Ray"})
            jsonschema.validate(shown.structured_content, tools["get"].output_schema)
            assert shown.structured_content["book"] == "team"
    anyio.run(body)


# alice may read `book` but not write it: a DELETE there is refused (403).
READ_ONLY_BOOK = READ_ONLY_TEAM.replace("{user}/team(/.*)?", "{user}/book(/.*)?")


def test_a_move_whose_delete_is_refused_keeps_the_card_and_deletes_it_at_a_later_sync(two_books, tmp_path):
    server = two_books.server
    two_books.put(server.book, "ann.vcf", vcard("ann", "Ann", "Lee"))
    book = Book(tmp_path)
    add_all_books(book, server)
    summary(book.sync())
    assert book.run("move", "Ann Lee", "team").returncode == 0

    # The old book refuses the DELETE: the card is put in team all the same, and the move is kept.
    two_books.restart_with_rights(READ_ONLY_BOOK)
    failed = book.sync()
    assert failed.returncode == 1
    lines = failed.stdout.strip().splitlines()
    assert lines[0].startswith("home (book book): pulled 0, pushed 0, merged 0, conflicts 0; 1 card failed, "
                               "tried again at the next sync (ann.vcf: not sent, the server answered 403"), lines
    assert lines[1] == "home (book team): pulled 0, pushed 1, merged 0, conflicts 0"
    assert two_books.names(server.book) == ["ann.vcf"]
    assert len(two_books.names(two_books.team)) == 1
    # The card left behind is not pulled back as another contact.
    assert list_rows(book) == {"Ann Lee": "team"}

    # Writable again: the next sync sends the DELETE, and nothing is left to do after it.
    two_books.restart_with_rights(READ_ONLY_BOOK.replace("permissions: r\n", "permissions: rw\n", 1))
    assert summary(book.sync()).splitlines() == [
        "home (book book): pulled 0, pushed 1, merged 0, conflicts 0",
        "home (book team): pulled 0, pushed 0, merged 0, conflicts 0"]
    assert two_books.names(server.book) == []
    assert summary(book.sync()).splitlines() == [
        "home (book book): pulled 0, pushed 0, merged 0, conflicts 0",
        "home (book team): pulled 0, pushed 0, merged 0, conflicts 0"]
    assert list_rows(book) == {"Ann Lee": "team"}
