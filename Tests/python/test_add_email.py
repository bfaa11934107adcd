"""`contactsbook add-email`: a mail client pipes a message in (neomutt's `<pipe-message>`), the
sender (or, with --all, everyone) is offered, known addresses skipped, every address recorded as
seen, and searches rank the people one writes to first. Real-looking messages from
Tests/ContactsAppTests/Fixtures/mail/."""
import json
import pathlib
import subprocess

import pexpect
import pytest

from rpc_client import TIMEOUT, binary, frame, isolated_env, parse_frames

MAIL = pathlib.Path(__file__).resolve().parent.parent / "ContactsAppTests" / "Fixtures" / "mail"


def run(tmp_path, *args, message=None, stdin=None):
    """Runs without a controlling terminal (a new session), as a mail client's pipe in a script does."""
    data = stdin if stdin is not None else (MAIL / message).read_bytes()
    return subprocess.run([binary(), *args], input=data, capture_output=True, env=isolated_env(tmp_path),
                          timeout=TIMEOUT, start_new_session=True)


def test_without_a_terminal_nothing_is_added_unless_yes_and_known_ones_are_skipped(tmp_path):
    db = str(tmp_path / "book.sqlite")
    done = run(tmp_path, "add-email", "--db", db, "--create", message="jose-to-ann.eml")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == "Not added (nobody to ask; --yes adds without asking): José Ñúñez <jose@correo.es>\n"

    done = run(tmp_path, "add-email", "--db", db, "--yes", message="jose-to-ann.eml")
    assert done.stdout.decode() == "Added José Ñúñez <jose@correo.es> as #1\n"

    done = run(tmp_path, "add-email", "--db", db, "--yes", "--all", message="thunderbird-reply.eml")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [
        "Known: jose@correo.es is José Ñúñez (#1)'s",
        "Added Zoë Adams <zoe@example.org> as #2",
        "Added Zoe Adams <zoe.adams@work.example> as #3",
        "Added Mary Kowalczyk <mary@kowalczyk.example> as #4",
        "Added Seán O'Brien <sean@obrien.example> as #5",
    ]

    # one change, taken back by undo
    undone = subprocess.run([binary(), "--db", db], input=b"undo\nlist\n", capture_output=True, env=isolated_env(tmp_path),
                            timeout=TIMEOUT)
    out = undone.stdout.decode()
    assert "Undid: added Zoë Adams and 3 more from mail" in out
    assert "José Ñúñez" in out and "Kowalczyk" not in out


def test_the_person_answers_on_the_terminal_while_stdin_is_the_message(tmp_path):
    db = str(tmp_path / "book.sqlite")
    # Not a message: said, nothing offered (the book is made, as --create asks)
    made = run(tmp_path, "add-email", "--db", db, "--create", stdin=b"")
    assert made.returncode == 1 and b"No sender in this message" in made.stderr
    # As neomutt's pipe does: stdin is the message, the terminal is the person's.
    child = pexpect.spawn("/bin/sh", ["-c", f'exec "{binary()}" add-email --all --db "{db}" < "{MAIL / "jose-to-ann.eml"}"'],
                          env=isolated_env(tmp_path), encoding="utf-8", timeout=TIMEOUT)
    child.expect_exact("Add José Ñúñez <jose@correo.es>? [y/N] ")
    child.sendline("y")
    child.expect_exact("Add Ann Lee <ann@example.org>? [y/N] ")
    child.sendline("")
    child.expect_exact("Not added: Ann Lee <ann@example.org>")
    for _ in range(4):
        child.expect(r"Add .*\? \[y/N\] ")
        child.sendline("n")
    child.expect_exact("Added José Ñúñez <jose@correo.es> as #1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_query_search_and_rpc_rank_the_people_written_to_first(tmp_path):
    db = str(tmp_path / "book.sqlite")
    # Four Adams, by name: Ann, Bob, Cy, Zoë; the mail names Zoë and Cy
    cards = "".join(f"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:{n} Adams\r\nN:Adams;{n};;;\r\nEMAIL:{e}\r\nEND:VCARD\r\n"
                    for n, e in [("Ann", "ann@a.example"), ("Bob", "bob@b.example"), ("Cy", "cy@c.example"),
                                 ("Zoë", "zoe@example.org")])
    imported = run(tmp_path, "import", "--db", db, "--create", "-", stdin=cards.encode())
    assert imported.returncode == 0, imported.stderr
    zoe_twice = b"From: Me <me@example.net>\nTo: Zoe <zoe@example.org>\n\n"
    for _ in range(2):
        assert run(tmp_path, "add-email", "--db", db, stdin=zoe_twice).returncode == 0
    assert run(tmp_path, "add-email", "--db", db, stdin=b"From: Cy <cy@c.example>\n\n").returncode == 0

    query = run(tmp_path, "query", "--db", db, "adams", stdin=b"")
    assert [line.split("\t")[0] for line in query.stdout.decode().splitlines()[1:]] == [
        "zoe@example.org", "cy@c.example", "ann@a.example", "bob@b.example"]
    search = run(tmp_path, "search", "--db", db, "--json", "adams", stdin=b"")
    rows = json.loads(search.stdout)["displayed"][0]["value"]["rows"]
    assert [row["name"] for row in rows] == ["Zoë Adams", "Cy Adams", "Ann Adams", "Bob Adams"]
    # the whole book, without a search, stays in name order
    listing = json.loads(run(tmp_path, "list", "--db", db, "--json", stdin=b"").stdout)["displayed"][0]["value"]["rows"]
    assert [row["name"] for row in listing] == ["Ann Adams", "Bob Adams", "Cy Adams", "Zoë Adams"]


def test_a_missing_book_is_not_made_without_create(tmp_path):
    done = run(tmp_path, "add-email", "--db", str(tmp_path / "nope.sqlite"), "--yes", message="jose-to-ann.eml")
    assert done.returncode == 2
    assert b"pass --create" in done.stderr
    assert not (tmp_path / "nope.sqlite").exists()


def test_mcp_search_ranks_the_people_written_to_first_and_rows_carry_every_address(tmp_path):
    from test_mcp import Checked, client, run as run_mcp
    db = str(tmp_path / "book.sqlite")  # the book test_mcp's client opens
    cards = ("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann Adams\r\nN:Adams;Ann;;;\r\nEMAIL:ann@a.example\r\nEND:VCARD\r\n"
             "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Zoë Adams\r\nN:Adams;Zoë;;;\r\nEMAIL;TYPE=work:zoe@example.org\r\n"
             "EMAIL;TYPE=home:zoe@home.example\r\nTEL;TYPE=cell:+1 555 000 1111\r\nEND:VCARD\r\n")
    assert run(tmp_path, "import", "--db", db, "--create", "-", stdin=cards.encode()).returncode == 0
    assert run(tmp_path, "add-email", "--db", db, stdin=b"From: Z <zoe@home.example>\n\n").returncode == 0

    async def body():
        async with client(tmp_path, "legacy") as c:
            checked = Checked(c, (await c.list_tools()).tools)
            result = await checked.call("search", {"text": "adams"})
            rows = result.structured_content["rows"]
            assert [row["name"] for row in rows] == ["Zoë Adams", "Ann Adams"]
            assert rows[0]["emails"] == [{"label": "work", "value": "zoe@example.org"},
                                         {"label": "home", "value": "zoe@home.example"}]
            assert [phone["label"] for phone in rows[0]["phones"]] == ["mobile"]  # vCard 4.0 TYPE=cell, as the book labels it
    run_mcp(body)


def test_lsp_completion_ranks_the_people_written_to_first(tmp_path):
    help_text = subprocess.run([binary(), "session", "--help"], capture_output=True, text=True).stdout
    if "--lsp" not in help_text:
        pytest.skip("this contactsbook has no --lsp (the lsp branch is not merged)")
    db = str(tmp_path / "book.sqlite")
    cards = "".join(f"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:{n} Adams\r\nN:Adams;{n};;;\r\nEMAIL:{e}\r\nEND:VCARD\r\n"
                    for n, e in [("Ann", "ann@a.example"), ("Bob", "bob@b.example"), ("Zoë", "zoe@example.org")])
    assert run(tmp_path, "import", "--db", db, "--create", "-", stdin=cards.encode()).returncode == 0
    assert run(tmp_path, "add-email", "--db", db, stdin=b"From: Me <me@x.example>\nTo: zoe@example.org\n\n").returncode == 0
    uri = "file:///tmp/draft.eml"
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": uri, "languageId": "mail", "version": 1, "text": "To: adams\n\nHi\n"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion",
         "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 9}}},
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    done = subprocess.run([binary(), "--lsp", "--db", db], input=b"".join(frame(m, "content-length") for m in messages),
                          capture_output=True, env=isolated_env(tmp_path), timeout=TIMEOUT)
    answer = next(m for m in parse_frames(done.stdout, "content-length") if m.get("id") == 2)
    assert [item["label"] for item in answer["result"]["items"]] == [
        "Zoë Adams <zoe@example.org>", "Ann Adams <ann@a.example>", "Bob Adams <bob@b.example>"]
