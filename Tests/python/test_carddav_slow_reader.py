"""A first download read at the network's pace, however slowly its cards are saved (issue 32).

Since sync4 a first download asks for every card in one answer. Radicale bounds the whole `sendall`
of an answer by its `[server] timeout` (30 s by default), and the sync used to read that answer only
as fast as it saved the cards: on a slow or loaded client, a first download of 50,000 cards from a
default Radicale stopped half way ("Transferred a partial file"), every sync again
(bench/FINDINGS.md, sync5). The transport now keeps the answer in a spool as it comes.

Here the saving is held up on purpose, not by a sleep: once the sync has opened the book (its
password command is where the test steps in), another connection takes the book's write lock, as a
second process saving a contact would, so the sync's writing thread cannot begin its transaction
and the cards pile up behind it. The test lets go only once Radicale is done with the answer, sent
whole or given up (its side of the connection no longer established), and Radicale's timeout is
short (5 s). The answer (40,000 cards, about 38 MB) is larger than what the kernel's socket buffers
(up to 32 MB on this host's loopback) and the sync's batches in flight hold together, so a reader
paced by its saving leaves Radicale blocked in `sendall` until it gives up."""
import os
import sqlite3
import subprocess
import time

from carddav_servers import Server
from test_carddav_sync import Book

CARDS = 40000
NOTE = 600  # bytes of NOTE a card: about 38 MB in one answer


def big_card(number):
    # One unfolded NOTE line: Radicale reads it in one piece, and so do we.
    filler = (f"{number:06d} " * (NOTE // 7 + 1))[:NOTE]
    return (f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:big-{number}\r\nFN:Big Number{number}\r\n"
            f"N:Number{number};Big;;;\r\nNOTE:{filler}\r\nEND:VCARD\r\n")


def server_side_open(port):
    """Whether Radicale still has a connection ESTABLISHED on its port (its side of our request)."""
    wanted = f"0100007F:{port:04X}"
    with open("/proc/net/tcp") as table:
        next(table)
        return any(line.split()[1] == wanted and line.split()[3] == "01" for line in table)


def wait_for(condition, sync, what, limit=600):
    # The server's and the kernel's own events, looked at until they happen; the limit only keeps
    # a broken run from hanging the suite.
    deadline = time.monotonic() + limit
    while not condition():
        assert sync.poll() is None, f"the sync ended before {what}: {sync.communicate()}"
        assert time.monotonic() < deadline, f"no {what} within {limit} s"
        time.sleep(0.05)


def test_a_first_download_saved_slower_than_radicale_will_wait_is_read_whole_and_saved(tmp_path):
    server = Server("radicale", tmp_path, radicale_timeout=5, unsynced=True)
    try:
        # Written into Radicale's storage as bench/carddav.py does (100 MB of PUTs would take minutes).
        folder = tmp_path / "radicale" / "collections" / "collection-root" / "alice" / "book"
        for number in range(CARDS):
            (folder / f"big-{number}.vcf").write_text(big_card(number), newline="")
        # Radicale reads and caches every card the first time it lists them (minutes on a loaded
        # host): done here, so that the sync's listing is answered as a warm server answers it.
        listing = (b'<sync-collection xmlns="DAV:"><sync-token/><sync-level>1</sync-level>'
                   b'<prop><getetag/></prop></sync-collection>')
        status, _, _ = server.request("REPORT", server.book, listing, {"Depth": "1"}, timeout=900)
        assert status == 207, status
        # The password command is where the test steps in: the sync has opened the book and not
        # begun its pull. Once `hold` exists it says `ready` and waits for the test to write to `go`.
        hold, ready, go = tmp_path / "hold", tmp_path / "ready", tmp_path / "go"
        os.mkfifo(go)
        password = tmp_path / "password.sh"
        password.write_text(f"#!/bin/sh\nif [ -e '{hold}' ]; then touch '{ready}'; cat '{go}' >/dev/null; fi\n"
                            "echo secret\n")
        password.chmod(0o755)
        book = Book(tmp_path)
        added = book.run("account", "add", "home", server.base, "--user", "alice", "--password-command", str(password))
        assert added.returncode == 0, added.stderr
        hold.touch()

        spool = tmp_path / "spool"
        spool.mkdir()
        sync = subprocess.Popen(
            [os.environ["CONTACTSBOOK_BIN"], "sync", "--db", book.db], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
            # A limit of one request far above Radicale's time to build the answer, so that only
            # Radicale's own timeout is tried here.
            env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TMPDIR": str(spool),
                 "CONTACTSBOOK_REQUEST_TIMEOUT": "900"})
        lock = None
        try:
            wait_for(ready.exists, sync, "the password command")
            # The book's write lock, held by another connection (as a second process saving a
            # contact would): the sync's writing thread waits for it.
            lock = sqlite3.connect(book.db, isolation_level=None, timeout=60)
            lock.execute("BEGIN IMMEDIATE")
            with open(go, "w"):
                pass
            log = tmp_path / "radicale" / "server.log"
            wait_for(lambda: "REPORT request for '/alice/book/'" in log.read_text(), sync, "REPORT")
            wait_for(lambda: not server_side_open(server.port), sync, "the end of Radicale's answer")
        finally:
            if lock:
                lock.rollback()
                lock.close()
        out, err = sync.communicate(timeout=600)
    finally:
        server.stop()

    assert (sync.returncode, err) == (0, ""), err
    assert out == f"home: pulled {CARDS}, pushed 0, merged 0, conflicts 0\n"
    # Radicale did not give up on the answer ("Client timed out", or "timed out" in a request).
    assert "timed out" not in (tmp_path / "radicale" / "server.log").read_text()
    assert book.sql("SELECT count(*) FROM contact")[0][0] == CARDS
    # The spool ($TMPDIR) leaves nothing behind.
    assert os.listdir(spool) == []
