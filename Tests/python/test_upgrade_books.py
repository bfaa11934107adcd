"""Books made by earlier versions of the program (Tests/ContactsAppTests/Fixtures/books/, whose
README names the commit and the commands that made each), opened with today's executable as a
person would: the upgrade is said once, every contact is there and found, and in the books that
kept a journal the old history is listed, its last change undone and the trash restored."""
import os
import re
import shutil
import sqlite3
import subprocess

import pytest

from rpc_client import TIMEOUT, binary, isolated_env

BOOKS = os.path.join(os.path.dirname(__file__), "..", "ContactsAppTests", "Fixtures", "books")
OLDER = ["v5-71b6665", "named-b0fa603"]          # before the change journal
JOURNALLED = ["journal-292235c", "sync-51f85f7", "directory-3220305"]
NAMES = ["Olga Brown", "Acme", "Ann Lee", "José Núñez", "Beethoven", "山田", "Mary Kowalczyk"]


def copy(tmp_path, book):
    path = str(tmp_path / f"{book}.sqlite")
    shutil.copyfile(os.path.join(BOOKS, f"{book}.sqlite"), path)
    return path


def run(tmp_path, db, script, *arguments):
    env = isolated_env(tmp_path)
    # The books' change sets are as old as the fixture: kept whatever today's date.
    env["CONTACTSBOOK_HISTORY_DAYS"] = "1000000"
    return subprocess.run([binary(), *arguments, "--db", db], input=script, capture_output=True, text=True,
                          env=env, timeout=TIMEOUT)


@pytest.mark.parametrize("book", OLDER + JOURNALLED)
def test_a_book_of_an_earlier_version_is_upgraded_once_and_holds_every_contact(tmp_path, book):
    db = copy(tmp_path, book)
    first = run(tmp_path, db, "list\nsearch springfield\nsearch owalc\nsearch 0002222\nsearch stone\n")
    assert first.returncode == 0, first.stderr
    assert "upgrading " + db in first.stderr
    for name in NAMES:
        assert name in first.stdout, name
    assert "Bob Stone" not in first.stdout
    again = run(tmp_path, db, "list\nsearch springfield\nsearch owalc\nsearch 0002222\nsearch stone\n")
    assert again.returncode == 0 and "upgrading" not in again.stderr
    assert again.stdout == first.stdout
    # Every field of the contact made with them all
    shown = run(tmp_path, db, "show ann lee\n").stdout
    for value in ["Annie", "Acme Corp", "Engineer", "(555) 123-4567", "ann.lee42@example.org",
                  "12 Elm St, Springfield, IL, 62701, USA", "1990-05-17", "friends, vip", "met at the conference"]:
        assert value in shown, value


@pytest.mark.parametrize("book", OLDER)
def test_a_book_made_before_the_journal_keeps_one_from_its_upgrade_on(tmp_path, book):
    db = copy(tmp_path, book)
    before = run(tmp_path, db, "history\nundo\n")
    assert "Undid" not in before.stdout
    result = run(tmp_path, db, "show ann lee\nedit\ntitle CTO\nsave\nback\nundo\nshow ann lee\n")
    assert result.returncode == 0, result.stderr
    edited, undone = result.stdout.split("Undid: edited Ann Lee")
    assert "CTO" in edited
    assert "Engineer" in undone and "CTO" not in undone


@pytest.mark.parametrize("book", JOURNALLED)
def test_the_history_of_an_earlier_version_is_listed(tmp_path, book):
    db = copy(tmp_path, book)
    result = run(tmp_path, db, "history\n")
    assert result.returncode == 0, result.stderr
    for summary in ["deleted Bob Stone", "edited Mary Kowalczyk", "edited Ann Lee", "added Bob Stone",
                    "added Ann Lee", "imported"]:
        assert summary in result.stdout, summary
    # A contact's own history, field by field
    ann = run(tmp_path, db, "history ann lee\n")
    assert "edited Ann Lee" in ann.stdout and "Acme Corp" in ann.stdout


@pytest.mark.parametrize("book", JOURNALLED)
def test_the_last_change_of_an_earlier_version_is_undone_and_redone(tmp_path, book):
    db = copy(tmp_path, book)
    result = run(tmp_path, db, "undo\nsearch stone\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Undid: deleted Bob Stone")
    assert "Bob Stone" in result.stdout.split("Undid")[1]
    # the change before it too, and back again
    result = run(tmp_path, db, "undo\nshow mary kowalczyk\nback\nredo\nshow mary kowalczyk\n")
    assert result.returncode == 0, result.stderr
    undone, redone = result.stdout.split("Redid")
    assert "Undid: edited Mary Kowalczyk" in undone and "000-2222" not in undone
    assert "000-2222" in redone


@pytest.mark.parametrize("book", JOURNALLED)
def test_the_trash_of_an_earlier_version_is_restored(tmp_path, book):
    db = copy(tmp_path, book)
    result = run(tmp_path, db, "trash\nrestore bob stone\nshow bob stone\n")
    assert result.returncode == 0, result.stderr
    trash, restored = result.stdout.split("Restored")
    assert "Bob Stone" in trash
    for value in ["Bob Stone", "bob@stone.example", "(555) 987-6543"]:
        assert value in restored, value


def test_the_sync_account_of_an_earlier_version_is_kept(tmp_path):
    db = copy(tmp_path, "sync-51f85f7")
    result = run(tmp_path, db, "", "account", "list")
    assert result.returncode == 0, result.stderr
    assert "home" in result.stdout and "http://127.0.0.1:40539/user/contacts/addressbook/" in result.stdout
    with sqlite3.connect(db) as book:
        # every contact sent to the server still linked to it, Bob's link kept for his deletion
        linked = book.execute("SELECT COUNT(*) FROM sync_item JOIN contact ON contact.id = sync_item.contact_id").fetchone()
        assert linked == (7,)
        assert book.execute("SELECT COUNT(*) FROM sync_item").fetchone() == (8,)


def test_the_directories_of_an_earlier_version_are_kept(tmp_path):
    # Its first `directory add` made the table before a migration did (Fixtures/books/README.md).
    db = copy(tmp_path, "directory-3220305")
    result = run(tmp_path, db, "", "directory", "list")
    assert result.returncode == 0, result.stderr
    assert "upgrading " + db in result.stderr
    assert result.stdout == (
        "ad\tldap://dc1.example.org/dc=example,dc=org · StartTLS · bind cn=reader,ou=service,dc=example,dc=org"
        " · at most 20 entries in 1.5 s\n"
        "corp\tldaps://ldap.example.org/ou=people,dc=example,dc=org · LDAPS · anonymous · at most 50 entries in 3 s\n")
    # A book of a version before directories gets the table with the upgrade, and takes one.
    older = copy(tmp_path, "sync-51f85f7")
    added = run(tmp_path, older, "", "directory", "add", "corp", "ldaps://ldap.example.org/ou=people,dc=example,dc=org")
    assert added.returncode == 0, added.stderr
    with sqlite3.connect(older) as book:
        assert book.execute("SELECT name, security FROM directory_source").fetchall() == [("corp", "ldaps")]
        assert book.execute("SELECT COUNT(*) FROM grdb_migrations WHERE identifier = 'add directory sources'").fetchone() == (1,)


def test_the_groups_of_an_earlier_version_list_their_members_after_the_upgrade(tmp_path):
    # Made by main 51b1074 with WITH_GROUPS=1 (Fixtures/books/README.md): groups whose members name
    # cards with `urn:uuid:` and without, one member whose card is not in the book, Bob deleted
    # while in Friends. The upgrade finds each member's row once (`group_contact`).
    db = copy(tmp_path, "groups-51b1074")
    first = run(tmp_path, db, "groups\nlist --group friends\nlist --group clients\nlist --ungrouped\n")
    assert first.returncode == 0, first.stderr
    assert "upgrading " + db in first.stderr
    assert "Board                     1\nClients  3 (2 in this book)\nFriends  3 (2 in this book)\n" in first.stdout
    friends, clients, ungrouped = first.stdout.split("#  Name")[1:]
    assert "Ann Lee" in friends and "José Núñez" in friends and "Bob Stone" not in friends
    assert "2 contacts in group Friends" in friends
    assert "Acme Support" in clients and "Olga Brown" in clients and "2 contacts in group Clients" in clients
    assert [name in ungrouped for name in ["Beethoven", "Mary Kowalczyk", "山田", "Ann Lee"]] == [True, True, True, False]
    assert "3 contacts in no group" in ungrouped
    # Bob's deletion undone: he is back in Friends, and out of the contacts in no group.
    undone = run(tmp_path, db, "undo\nlist --group friends\nlist --ungrouped\n")
    assert "Undid: deleted Bob Stone" in undone.stdout, undone.stdout + undone.stderr
    friends, ungrouped = undone.stdout.split("#  Name")[1:]
    assert "Bob Stone" in friends and "3 contacts in group Friends" in friends
    assert "Bob Stone" not in ungrouped and "3 contacts in no group" in ungrouped
    # A member added and taken back after the upgrade.
    added = run(tmp_path, db, "group add friends 山田\nlist --group friends\ngroups\nundo\nlist --group friends\n")
    assert added.returncode == 0, added.stderr
    with_taro, without = added.stdout.split("#  Name")[1:3]
    assert "太郎 山田" in with_taro and "4 contacts in group Friends" in with_taro
    assert "太郎 山田" not in without and "3 contacts in group Friends" in without
    assert re.search(r"\nFriends +4\n", with_taro), with_taro
