"""`kill -9` in the middle of each write path, at seeded points: an import of a few thousand
cards, a run of saves through the line session, a run of deletes over --rpc.

The kill point is chosen by what the process has reported, never by time: the k-th progress
notification of an import (each is sent after a batch is saved, inside the import's one
transaction), the k-th save or delete acknowledged. After each kill the book must pass SQLite's
integrity check and FTS5's, its kept count and search index must match its rows, and each change
must be there whole or not at all; what was acknowledged must be there.
"""
import base64
import random
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from carddav_servers import PASSWORD, USER, vcard
from rpc_client import RpcProcess, binary, isolated_env, TIMEOUT

ROOT = Path(__file__).resolve().parents[2]
SEEDS = [18, 19, 20]


def generate_cards(directory, count, seed):
    """A vCard file of `count` generated contacts (bench/gen.py, deterministic per seed)."""
    directory.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(ROOT / "bench" / "gen.py"), str(count), str(directory), "--seed", str(seed)],
                   check=True, stdout=subprocess.DEVNULL)
    return directory / f"cards-{count}.vcf"


def import_file(tmp_path, db, path):
    result = subprocess.run([binary(), "import", "--create", "--db", db, str(path)], env=isolated_env(tmp_path),
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode(errors="replace")


def checked_book(db):
    """Checks the book the way a crash could break it; returns {uid: row} of its contacts."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        for table in ("contact_text", "contact_phone", "contact_phone_gram"):
            con.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")  # raises if broken
        con.rollback()
        rows = con.execute("SELECT id, uid, given, family, emails, phones, version FROM contact").fetchall()
        (kept,) = con.execute("SELECT n FROM contact_count").fetchone() or (0,)
        assert kept == len(rows), "the kept count differs from the rows"
        indexed = {rowid for (rowid,) in con.execute("SELECT rowid FROM contact_text")}
        assert indexed == {row[0] for row in rows}, "the search index differs from the rows"
        return {row[1]: row for row in rows}
    finally:
        con.close()


def schema(db):
    con = sqlite3.connect(db)
    try:
        return sorted(con.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))
    finally:
        con.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_during_an_import_leaves_the_book_as_it_was(tmp_path, spawn_rpc, seed):
    # Given a book, empty or not (an import into an empty book sets its indexes aside and builds
    # them at the end), and a file of 6,000 cards: progress comes after each 500 saved
    rng = random.Random(seed)
    db = str(tmp_path / "book.sqlite")
    if rng.random() < 0.5:
        import_file(tmp_path, db, generate_cards(tmp_path / "before", 40, seed))
    else:
        subprocess.run([binary(), "--create", "--db", db], input=b"list\n", env=isolated_env(tmp_path), check=True,
                       capture_output=True, timeout=TIMEOUT)
    before, before_schema = checked_book(db), schema(db)
    cards = generate_cards(tmp_path / "import", 6000, seed + 1000)
    kill_after = rng.randint(1, 2)
    server = spawn_rpc(framing="newline", db=db)
    server.request("initialize", {"capabilities": {}})
    # When it is killed after the k-th progress report, inside the import's transaction
    server.send({"jsonrpc": "2.0", "id": 99, "method": "contacts/import",
                 "params": {"path": str(cards), "workDoneToken": "import"}})
    reports = 0
    while reports < kill_after:
        message = server.next_message()
        assert message.get("id") != 99, f"the import ended before report {kill_after}: {message}"
        if message.get("method") == "$/progress" and message["params"]["value"].get("kind") == "report":
            reports += 1
    server.kill()
    # Then the book is whole, and exactly as it was
    assert checked_book(db) == before
    assert schema(db) == before_schema
    # And the same import, run to the end, adds every card
    import_file(tmp_path, db, cards)
    assert len(checked_book(db)) == len(before) + 6000


def line_session(tmp_path, db):
    return subprocess.Popen([binary(), "--create", "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=isolated_env(tmp_path))


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_during_saves_in_the_line_session_keeps_each_save_whole(tmp_path, seed):
    # Given a line session adding 150 contacts, each with an email and a phone
    rng = random.Random(seed)
    db = str(tmp_path / "book.sqlite")
    count = 150
    script = "".join(f"add\ngiven Person{i}\nfamily Crash\nemail work p{i}@crash.example\nphone +1 555 {i:04}\nsave\n"
                     for i in range(count))
    kill_after = rng.randint(1, count - 1)
    session = line_session(tmp_path, db)
    session.stdin.write(script.encode())
    session.stdin.close()  # it reads on to the end; its answers come as its output is flushed
    # When it is killed after the k-th save is acknowledged, with the rest still coming
    saved = 0
    while saved < kill_after:
        line = session.stdout.readline()
        assert line, f"the session ended after {saved} saves: {session.stderr.read().decode(errors='replace')}"
        saved += line.startswith(b"Added ")
    session.kill()
    session.wait(timeout=TIMEOUT)
    # Then every acknowledged save is there, the ones that are there are a run from the first,
    # and each is whole
    book = checked_book(db)
    names = sorted(int(row[2][len("Person"):]) for row in book.values())
    assert names == list(range(len(names)))
    assert len(names) >= kill_after
    for row in book.values():
        number = int(row[2][len("Person"):])
        assert row[3] == "Crash"
        assert f"p{number}@crash.example" in row[4] and f"{number:04}" in row[5]


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_during_deletes_over_rpc_keeps_each_delete_whole(tmp_path, spawn_rpc, seed):
    # Given a book of 300 contacts and 200 delete requests sent at once
    rng = random.Random(seed)
    db = str(tmp_path / "book.sqlite")
    import_file(tmp_path, db, generate_cards(tmp_path / "cards", 300, seed))
    before = checked_book(db)
    ids = sorted(row[0] for row in before.values())
    order = rng.sample(ids, 200)
    kill_after = rng.randint(1, len(order) - 1)
    server = spawn_rpc(framing="newline", db=db)
    server.request("initialize", {"capabilities": {}})
    for number, contact in enumerate(order):
        server.send({"jsonrpc": "2.0", "id": 1000 + number, "method": "contacts/delete",
                     "params": {"contact": str(contact)}})
    # When it is killed after the k-th delete is answered
    answered = 0
    while answered < kill_after:
        message = server.next_message()
        if "id" in message:
            assert "result" in message, message
            answered += 1
    server.kill()
    # Then the deleted ones are a run from the first sent, at least the answered ones, and
    # every other contact is untouched
    after = checked_book(db)
    gone = [contact for contact in order if contact not in {row[0] for row in after.values()}]
    assert gone == order[:len(gone)]
    assert len(gone) >= kill_after
    assert {uid: row for uid, row in before.items() if row[0] not in gone} == after


def many_fields_card(group, member):
    """One of three cards of a group to merge: 8 emails, 8 phones, 3 addresses, 4 tags, a note."""
    uid = f"g{group}-{member}"
    lines = [f"EMAIL;TYPE=work:{uid}.{n}@merge.example" for n in range(8)]
    lines += [f"TEL;TYPE=cell:+1 555 {group:03}{member}{n}" for n in range(8)]
    lines += [f"ADR;TYPE=home:;;{n} {uid} Street;Town{n};;{10000 + n};Land" for n in range(3)]
    lines += [f"CATEGORIES:tag{member}a,tag{member}b,tag{member}c,tag{member}d", f"NOTE:note of {uid}",
              f"ORG:Org {uid}", f"TITLE:Title {uid}"]
    body = "".join(line + "\r\n" for line in lines)
    return (f"BEGIN:VCARD\r\nVERSION:4.0\r\nUID:{uid}\r\nFN:Person{group} Merge\r\nN:Merge;Person{group};;;\r\n"
            f"{body}END:VCARD\r\n")


def trashed(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM contact_trash").fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_during_merges_keeps_each_merge_whole(tmp_path, seed):
    # Given a book of 60 groups of three contacts with many fields each, and a line session
    # merging each group into its first contact
    rng = random.Random(seed)
    db = str(tmp_path / "book.sqlite")
    groups = 60
    cards = tmp_path / "groups.vcf"
    cards.write_text("".join(many_fields_card(g, m) for g in range(groups) for m in range(3)), newline="")
    import_file(tmp_path, db, cards)
    before = checked_book(db)
    assert len(before) == 3 * groups
    ids = {uid: row[0] for uid, row in before.items()}
    script = "".join(f"merge {ids[f'g{g}-0']} {ids[f'g{g}-1']} {ids[f'g{g}-2']}\n" for g in range(groups))
    kill_after = rng.randint(1, groups - 1)
    session = line_session(tmp_path, db)
    session.stdin.write(script.encode())
    session.stdin.close()
    # When it is killed after the k-th merge is acknowledged, with the rest still coming
    merged = 0
    while merged < kill_after:
        line = session.stdout.readline()
        assert line, f"the session ended after {merged} merges: {session.stderr.read().decode(errors='replace')}"
        merged += line.startswith(b"Merged ")
    session.kill()
    session.wait(timeout=TIMEOUT)
    # Then each group is either merged whole (the first holds all 24 emails and 24 phones, one
    # version later; the other two are gone, into the trash) or untouched; the merged ones are a
    # run from the first, at least the acknowledged ones
    after = checked_book(db)
    done = []
    for g in range(groups):
        first, others = f"g{g}-0", [f"g{g}-1", f"g{g}-2"]
        if any(uid in after for uid in others):
            assert all(after[uid] == before[uid] for uid in [first] + others), f"group {g} half merged"
            done.append(False)
            continue
        kept = after[first]
        emails = {f"g{g}-{m}.{n}@merge.example" for m in range(3) for n in range(8)}
        assert all(email in kept[4] for email in emails), f"group {g}: emails missing"
        assert all(f"555 {g:03}{m}{n}" in kept[5] for m in range(3) for n in range(8)), f"group {g}: phones missing"
        assert kept[6] == before[first][6] + 1
        done.append(True)
    count = sum(done)
    assert done == [True] * count + [False] * (groups - count)
    assert count >= kill_after
    assert trashed(db) == 2 * count
    # And the last merge can be taken back whole: its three contacts as they were
    if count:
        undo = subprocess.run([binary(), "--db", db], input=b"undo\n", env=isolated_env(tmp_path),
                              capture_output=True, timeout=TIMEOUT)
        assert undo.returncode == 0 and b"Undid" in undo.stdout, undo.stdout + undo.stderr
        restored = checked_book(db)
        last = count - 1
        assert all(restored[f"g{last}-{m}"][1:6] == before[f"g{last}-{m}"][1:6] for m in range(3))


# --- Sync against a real Radicale (Tests/python/carddav_servers.py) ---

SYNC_TIMEOUT = 300  # seconds; an upper bound only, for a loaded machine


def add_account(tmp_path, db, server):
    result = subprocess.run([binary(), "account", "add", "home", server.base, "--user", "alice",
                             "--password-command", server.password_command, "--db", db, "--create"],
                            env=isolated_env(tmp_path), capture_output=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr.decode(errors="replace")


def sync(tmp_path, db):
    result = subprocess.run([binary(), "sync", "--db", db], env=isolated_env(tmp_path), capture_output=True,
                            timeout=SYNC_TIMEOUT)
    assert result.returncode == 0, (result.stdout + result.stderr).decode(errors="replace")
    return result.stdout.decode().strip()


def sync_killed(spawn_rpc, db, kill_at):
    """Starts a sync over --rpc and kills it once the progress report `kill_at` = (message, n)
    has come n times; returns False if the sync ended first."""
    message, times = kill_at
    server = spawn_rpc(framing="newline", db=db)
    server.request("initialize", {"capabilities": {}})
    server.send({"jsonrpc": "2.0", "id": 99, "method": "contacts/sync",
                 "params": {"account": "home", "workDoneToken": "sync"}})
    seen = 0
    while seen < times:
        answer = server.messages.get(timeout=SYNC_TIMEOUT)
        assert answer is not None, bytes(server.stderr).decode(errors="replace")
        if answer.get("id") == 99:
            assert "result" in answer, answer
            return False
        value = answer.get("params", {}).get("value", {}) if answer.get("method") == "$/progress" else {}
        seen += value.get("kind") == "report" and value.get("message") == message
    server.kill()
    return True


def wait_until_idle(server):
    """Waits (bounded) until Radicale has answered every request its log shows: a killed sync's
    last request goes on there, and would slow the next sync's past our client's 30 s."""
    log = server.log.name
    deadline = time.monotonic() + SYNC_TIMEOUT
    while True:
        text = open(log).read()
        if text.count(" request for ") == text.count(" response status for "):
            return
        assert time.monotonic() < deadline, "Radicale never finished the killed sync's requests"
        time.sleep(0.2)


def synced_book(db):
    """The checked book's uids, each once, and its links to the server."""
    book = checked_book(db)
    con = sqlite3.connect(db)
    try:
        links = con.execute("SELECT href, contact_id FROM sync_item").fetchall()
    finally:
        con.close()
    assert len({contact for _, contact in links}) == len(links), "a contact linked twice"
    return book, links


def server_uids(server):
    uids = [re.search(r"^UID:(.*?)\r?$", text, re.M).group(1) for text in server.cards().values()]
    assert len(uids) == len(set(uids)), "a card twice on the server"
    return set(uids)


def warm(server):
    """Lets Radicale read cards written straight into its folder (its first listing of a few
    thousand new files takes longer than our client waits on this machine)."""
    request = urllib.request.Request(server.book, data=b'<propfind xmlns="DAV:"><prop><getetag/></prop></propfind>',
                                     method="PROPFIND", headers={"Depth": "1", "Content-Type": "application/xml"})
    request.add_header("Authorization", "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode())
    with urllib.request.urlopen(request, timeout=SYNC_TIMEOUT) as answer:
        answer.read()


def test_kill_during_the_pull_of_2000_cards_then_the_next_sync_finishes_without_duplicates(tmp_path, radicale,
                                                                                           spawn_rpc):
    # Given 2,000 cards on the server (written into Radicale's folder, as many PUTs would take
    # minutes) and an empty book with the account
    rng = random.Random(21)
    folder = tmp_path / "radicale" / "collections" / "collection-root" / "alice" / "book"
    for i in range(2000):
        (folder / f"pull-{i}.vcf").write_text(vcard(f"pull-{i}", f"Given{i}", "Pull", f"EMAIL:g{i}@pull.example",
                                                    f"TEL:+1 555 {i:04}", "NOTE:pulled"), newline="")
    warm(radicale)
    db = str(tmp_path / "book.sqlite")
    add_account(tmp_path, db, radicale)
    # When syncs are killed while the cards come down, and while they are saved (in a seeded order)
    kill_points = [("downloading", 1), ("downloaded", 1)]
    rng.shuffle(kill_points)
    for kill_at in kill_points:
        killed = sync_killed(spawn_rpc, db, kill_at)
        wait_until_idle(radicale)
        # Then after each the book is whole, holding the 2,000 cards all linked, or none of them
        book, links = synced_book(db)
        assert (len(book), len(links)) in [(0, 0), (2000, 2000)], (kill_at, killed, len(book), len(links))
    # And the next sync finishes: every card here once, none sent back, none twice on the server
    sync(tmp_path, db)
    book, links = synced_book(db)
    assert set(book) == {f"pull-{i}" for i in range(2000)} and len(links) == 2000
    assert server_uids(radicale) == set(book)
    assert sync(tmp_path, db) == "home: pulled 0, pushed 0, merged 0, conflicts 0"


def test_kill_during_pushes_then_the_next_sync_finishes_without_duplicates(tmp_path, radicale, spawn_rpc):
    # Given a book of 150 contacts never synced, and an empty address book on the server
    rng = random.Random(22)
    db = str(tmp_path / "book.sqlite")
    import_file(tmp_path, db, generate_cards(tmp_path / "cards", 150, 22))
    add_account(tmp_path, db, radicale)
    before = checked_book(db)
    # When two syncs are killed, each after a seeded count of cards sent
    for times in sorted(rng.sample(range(1, 150), 2)):
        killed = sync_killed(spawn_rpc, db, ("uploading", times))
        wait_until_idle(radicale)
        # Then the book is whole and unchanged, each contact linked at most once, each card on
        # the server at most once
        book, links = synced_book(db)
        assert {uid: row[:6] for uid, row in book.items()} == {uid: row[:6] for uid, row in before.items()}
        assert len(links) >= times - 1 or not killed  # the first report comes before any card is sent
        assert server_uids(radicale) <= set(before)
    # And the next sync finishes: every contact on the server once, nothing added here
    sync(tmp_path, db)
    book, links = synced_book(db)
    assert set(book) == set(before) and len(links) == 150
    assert server_uids(radicale) == set(before)
    assert sync(tmp_path, db) == "home: pulled 0, pushed 0, merged 0, conflicts 0"


def test_kill_while_a_large_answer_streams_leaves_nothing_half_written_and_the_next_sync_completes(tmp_path,
                                                                                                    spawn_rpc):
    # Given 300 cards with a 30 KB photo each (a first sync saves them while the multiget answer
    # is still being read: its first 8 MB of cards go to the writer before the answer ends), on
    # a server whose answer, after the cards, never ends
    import hostile_dav
    server = hostile_dav.HostileDAV()
    try:
        for i in range(300):
            photo = base64.b64encode(random.Random(i).randbytes(30_000)).decode()
            server.put(f"/alice/book/s{i}.vcf", hostile_dav.card(f"s{i}", f"Given{i} Stream", f"PHOTO;ENCODING=b:{photo}"))
        db = str(tmp_path / "book.sqlite")
        result = subprocess.run([binary(), "account", "add", "home", server.base, "--user", "alice",
                                 "--password-command", "echo secret", "--db", db, "--create"],
                                env=isolated_env(tmp_path), capture_output=True, timeout=TIMEOUT)
        assert result.returncode == 0, result.stderr.decode(errors="replace")
        before, before_schema = checked_book(db), schema(db)
        server.endless = "tail"
        # When the sync is killed once the first cards were handed on (its second "downloading"
        # report; the first says 0): the answer never ends, so it was still streaming
        assert sync_killed(spawn_rpc, db, ("downloading", 2))
        # Then the book is whole and as it was: no contact, no link, no token
        assert checked_book(db) == before and schema(db) == before_schema
        _, links = synced_book(db)
        assert links == []
        con = sqlite3.connect(db)
        try:
            assert con.execute("SELECT sync_token FROM address_book WHERE account IS NOT NULL").fetchall() == [(None,)]
        finally:
            con.close()
        # And the next sync, answered plainly, brings every card once
        server.endless = None
        assert sync(tmp_path, db) == "home: pulled 300, pushed 0, merged 0, conflicts 0"
        book, links = synced_book(db)
        assert set(book) == {f"s{i}" for i in range(300)} and len(links) == 300
    finally:
        server.stop()
