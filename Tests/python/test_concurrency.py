"""Several processes writing one book at once, for a bounded count of operations: line sessions
adding and editing, a large import, an undo, syncs with a real Radicale, JSON-RPC sessions
editing. Nothing may be lost, no "database is locked" (or busy) may reach a user, and an edit
made stale by another process (a save, a sync) is refused.
"""
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from carddav_servers import vcard
from rpc_client import binary, isolated_env, TIMEOUT

ROOT = Path(__file__).resolve().parents[2]


def generate_cards(directory, count, seed):
    directory.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(ROOT / "bench" / "gen.py"), str(count), str(directory), "--seed", str(seed)],
                   check=True, stdout=subprocess.DEVNULL)
    return directory / f"cards-{count}.vcf"


def rows(db):
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        (kept,) = con.execute("SELECT n FROM contact_count").fetchone()
        found = con.execute("SELECT id, given, family, version FROM contact").fetchall()
        assert kept == len(found)
        return found
    finally:
        con.close()


def start(tmp_path, args, name):
    return subprocess.Popen([binary(), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=isolated_env(tmp_path / name))


@pytest.mark.parametrize("seed", [5, 6])
def test_writers_at_once_lose_nothing_and_never_say_busy(tmp_path, seed):
    # Given a book of 100 contacts
    rng = random.Random(seed)
    db = str(tmp_path / "book.sqlite")
    subprocess.run([binary(), "import", "--create", "--db", db, str(generate_cards(tmp_path / "base", 100, seed))],
                   env=isolated_env(tmp_path), check=True, capture_output=True, timeout=120)
    base = rows(db)
    writers, adds = 4, 40
    # Each writer edits contacts of its own: two writers on one contact make a stale save, refused
    # by design (test_an_edit_made_stale_by_another_process_is_refused), leaving that session in its form.
    picked = rng.sample([row[0] for row in base], 5 * writers)
    edited = {writer: picked[5 * writer:5 * writer + 5] for writer in range(writers)}
    scripts = []
    for writer in range(writers):
        lines = []
        for number in range(adds):
            lines += ["add", f"given W{writer}N{number}", "family Many", f"email work w{writer}n{number}@many.example",
                      "save"]
            if number % 8 == 0:
                contact = edited[writer][number // 8]
                lines += [f"show {contact}", "edit", f"notes edited by W{writer}", "save", "back"]
        scripts.append("\n".join(lines) + "\n")
    cards = generate_cards(tmp_path / "import", 2000, seed + 1)
    # When four line sessions add and edit while a 2,000-card import runs, all at once
    processes = [start(tmp_path, ["--db", db], f"w{writer}") for writer in range(writers)]
    processes.append(start(tmp_path, ["import", "--db", db, str(cards)], "import"))
    for process, script in zip(processes, scripts + [""]):
        process.stdin.write(script.encode())
        process.stdin.close()
    outputs = [(process.stdout.read(), process.stderr.read(), process.wait(timeout=120)) for process in processes]
    # Then every process ended well, and none told its user the book was busy or locked
    for out, err, status in outputs:
        text = (out + err).decode(errors="replace").lower()
        assert status == 0, text[-2000:]
        assert "locked" not in text and "busy" not in text, text[-2000:]
        assert "error" not in text, text[-2000:]
    # And nothing was lost: every add, every card, every edit
    after = rows(db)
    names = {(row[1], row[2]) for row in after}
    assert len(after) == len(base) + writers * adds + 2000
    assert all((f"W{w}N{n}", "Many") in names for w in range(writers) for n in range(adds))
    con = sqlite3.connect(db)
    try:
        for writer, contacts in edited.items():
            for contact in contacts:
                (notes,) = con.execute("SELECT notes FROM contact WHERE id = ?", (contact,)).fetchone()
                assert f"edited by W{writer}" in notes or any(
                    contact in edited[other] for other in edited if other != writer), (contact, notes)
    finally:
        con.close()


def test_an_edit_made_stale_by_another_process_is_refused(tmp_path, spawn_rpc):
    # Given two editor sessions on one book, each with the same contact open in its form
    db = str(tmp_path / "book.sqlite")
    subprocess.run([binary(), "import", "--create", "--db", db, str(generate_cards(tmp_path / "base", 3, 1))],
                   env=isolated_env(tmp_path), check=True, capture_output=True, timeout=TIMEOUT)
    (contact, _, _, version) = rows(db)[0]
    first, second = spawn_rpc(framing="newline", db=db), spawn_rpc(framing="newline", db=db)
    for server, family in ((first, "First"), (second, "Second")):
        server.request("initialize", {"capabilities": {}})
        assert "result" in server.request("contacts/show", {"contact": str(contact)})[1]
        assert "result" in server.request("contact/edit")[1]
        assert "result" in server.request("form/family", {"value": family})[1]
    # When the first saves, then the second
    _, saved = first.request("form/save")
    _, stale = second.request("form/save")
    # Then the first is kept and the second is refused as stale, not written over it
    assert "result" in saved, saved
    assert stale.get("error", {}).get("code") == -32012, stale
    after = {row[0]: row for row in rows(db)}
    assert after[contact][2] == "First"
    assert after[contact][3] == version + 1


def account(tmp_path, db, server):
    result = subprocess.run([binary(), "account", "add", "home", server.base, "--user", "alice",
                             "--password-command", server.password_command, "--db", db],
                            env=isolated_env(tmp_path), capture_output=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr.decode(errors="replace")


def session(tmp_path, db, *commands):
    result = subprocess.run([binary(), "--db", db], input="".join(c + "\n" for c in commands).encode(),
                            env=isolated_env(tmp_path), capture_output=True, timeout=120)
    assert result.returncode == 0, (result.stdout + result.stderr).decode(errors="replace")
    return result.stdout.decode()


def test_sync_and_undo_beside_writers_lose_nothing_and_never_say_busy(tmp_path, radicale):
    # Given a book of 100 contacts, then an import of 40 more (the change to undo), with an
    # account on an empty Radicale address book
    rng = random.Random(7)
    db = str(tmp_path / "book.sqlite")
    subprocess.run([binary(), "import", "--create", "--db", db, str(generate_cards(tmp_path / "base", 100, 7))],
                   env=isolated_env(tmp_path), check=True, capture_output=True, timeout=120)
    base = rows(db)
    later = tmp_path / "later.vcf"
    later.write_text("".join(f"BEGIN:VCARD\r\nVERSION:4.0\r\nUID:later-{i}\r\nFN:Later{i} Undone\r\n"
                             f"N:Undone;Later{i};;;\r\nEND:VCARD\r\n" for i in range(40)), newline="")
    subprocess.run([binary(), "import", "--db", db, str(later)], env=isolated_env(tmp_path), check=True,
                   capture_output=True, timeout=120)
    change = re.search(r"^#(\d+) .*imported 40 contacts", session(tmp_path, db, "history"), re.M).group(1)
    account(tmp_path, db, radicale)
    writers, adds = 2, 30
    picked = rng.sample([row[0] for row in base], 3 * writers)
    scripts = []
    for writer in range(writers):
        lines = []
        for number in range(adds):
            lines += ["add", f"given S{writer}N{number}", "family Beside", "save"]
            if number % 10 == 0:
                lines += [f"show {picked[3 * writer + number // 10]}", "edit", f"notes kept by S{writer}", "save",
                          "back"]
        scripts.append("\n".join(lines) + "\n")
    # When two line sessions add and edit while one session takes back the import by its number
    # and another syncs twice, all at once
    processes = [start(tmp_path, ["--db", db], f"s{writer}") for writer in range(writers)]
    processes.append(start(tmp_path, ["--db", db], "undo"))
    processes.append(start(tmp_path, ["--db", db], "sync"))
    for process, script in zip(processes, scripts + [f"undo {change}\n", "sync\nsync\n"]):
        process.stdin.write(script.encode())
        process.stdin.close()
    outputs = [(process.stdout.read(), process.stderr.read(), process.wait(timeout=300)) for process in processes]
    # Then every process ended well, and none told its user the book was busy or locked
    for out, err, status in outputs:
        text = (out + err).decode(errors="replace").lower()
        assert status == 0, text[-2000:]
        assert "locked" not in text and "busy" not in text, text[-2000:]
        assert "error" not in text, text[-2000:]
    assert b"Undid: imported 40 contacts" in outputs[2][0]
    assert outputs[3][0].count(b"home: pulled") == 2, outputs[3]
    # And nothing was lost: every add and edit is there, the import is taken back whole
    after = rows(db)
    names = {(row[1], row[2]) for row in after}
    assert len(after) == len(base) + writers * adds
    assert all((f"S{w}N{n}", "Beside") in names for w in range(writers) for n in range(adds))
    assert not any(family == "Undone" for _, _, family, _ in after)
    con = sqlite3.connect(db)
    try:
        for writer in range(writers):
            for contact in picked[3 * writer:3 * writer + 3]:
                (notes,) = con.execute("SELECT notes FROM contact WHERE id = ?", (contact,)).fetchone()
                assert f"kept by S{writer}" in notes, (contact, notes)
        uids = {uid for (uid,) in con.execute("SELECT uid FROM contact")}
    finally:
        con.close()
    # And a last sync leaves the server holding every contact here once, and nothing undone
    session(tmp_path, db, "sync")
    on_server = [re.search(r"^UID:(.*?)\r?$", text, re.M).group(1) for text in radicale.cards().values()]
    assert sorted(on_server) == sorted(uids)


def test_an_edit_made_stale_by_a_sync_in_another_process_is_refused(tmp_path, spawn_rpc, radicale):
    # Given a book synced with the server, and an editor session with Ann in its form
    db = str(tmp_path / "book.sqlite")
    radicale.put("ann.vcf", vcard("ann", "Ann", "Lee"))
    subprocess.run([binary(), "--create", "--db", db], input=b"list\n", env=isolated_env(tmp_path), check=True,
                   capture_output=True, timeout=TIMEOUT)
    account(tmp_path, db, radicale)
    session(tmp_path, db, "sync")
    (contact, _, _, version) = rows(db)[0]
    editor = spawn_rpc(framing="newline", db=db)
    editor.request("initialize", {"capabilities": {}})
    assert "result" in editor.request("contacts/show", {"contact": str(contact)})[1]
    assert "result" in editor.request("contact/edit")[1]
    assert "result" in editor.request("form/family", {"value": "Local"})[1]
    # When Ann changes on the server and another process syncs that change down
    _, etag = radicale.get("ann.vcf")
    radicale.put("ann.vcf", vcard("ann", "Ann", "Lee", "TITLE:Director"), etag=etag)
    assert "home: pulled 1" in session(tmp_path, db, "sync")
    # Then the editor's save is refused as stale, and the synced change is kept
    _, stale = editor.request("form/save")
    assert stale.get("error", {}).get("code") == -32012, stale
    (after,) = rows(db)
    assert after[2] == "Lee" and after[3] > version
