"""A book made by an older version: upgraded once, on first open, with a line on stderr."""
import sqlite3
import subprocess

from rpc_client import TIMEOUT, binary, isolated_env

CARD = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann-1\r\nN:Lee;Ann;;;\r\nFN:Ann Lee\r\nEMAIL:ann.lee42@example.org\r\nEND:VCARD\r\n"


def run(tmp_path, arguments, stdin=""):
    return subprocess.run([binary()] + arguments, input=stdin, capture_output=True, text=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT)


def older_book(tmp_path):
    """A book with one contact, taken back to the schema before the page anchors, recorded as
    versions before named migrations recorded it (identifiers v1 to v3)."""
    book = str(tmp_path / "book.sqlite")
    assert run(tmp_path, ["import", "--db", book, "--create", "-"], CARD).returncode == 0
    with sqlite3.connect(book) as db:
        db.executescript("DROP TABLE contact_anchor; DROP TABLE contact_text_vocab; DROP TABLE contact_word;"
                         "DROP TABLE contact_word_gram; DROP TABLE contact_key; DELETE FROM grdb_migrations;"
                         "INSERT INTO grdb_migrations (identifier) VALUES ('v1'), ('v2'), ('v3');")
    return book


def test_a_session_on_an_older_book_says_it_upgrades_once(tmp_path):
    book = older_book(tmp_path)
    first = run(tmp_path, ["--db", book], "search 42\n")
    assert first.returncode == 0, first.stderr
    assert "upgrading " + book in first.stderr
    assert "Lee" in first.stdout and "upgrading" not in first.stdout
    again = run(tmp_path, ["--db", book], "search 42\n")
    assert "upgrading" not in again.stderr
    assert again.stdout == first.stdout


def test_query_on_an_older_book_upgrades_it_and_keeps_stdout_for_the_mail_client(tmp_path):
    book = older_book(tmp_path)
    first = run(tmp_path, ["query", "--db", book, "ann.lee4"])
    assert first.returncode == 0, first.stderr
    assert "upgrading " + book in first.stderr
    assert first.stdout == "contactsbook: 1 address\nann.lee42@example.org\tAnn Lee\tother\n"
    again = run(tmp_path, ["query", "--db", book, "ann.lee4"])
    assert again.stderr == "" and again.stdout == first.stdout


def test_a_new_book_is_not_an_upgrade(tmp_path):
    result = run(tmp_path, ["--db", str(tmp_path / "new.sqlite"), "--create"], "list\n")
    assert result.returncode == 0
    assert "upgrading" not in result.stderr
