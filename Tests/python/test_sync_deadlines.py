"""Issue 26, item 7: a server cannot hold a sync hostage. A trickle of 2 bytes a second or a list
of changes truncated (507) for ever stops at a deadline, named; and a sync stuck in a slow
request stops at once when the person or client asks: Ctrl-C in the REPL, `$/cancelRequest`
over --rpc, `notifications/cancelled` over --mcp; the session then answers the next request.

The deadlines are set short through the environment (CONTACTSBOOK_REQUEST_TIMEOUT and the
others) so the tests are quick; they wait on the process and on the server's own events, never
on a clock of their own."""
import os
import subprocess

import anyio
import pexpect
import pytest
from mcp import Client, StdioServerParameters

from hostile_dav import HostileDAV, card
from rpc_client import TIMEOUT, RpcProcess, binary, isolated_env
from test_carddav_sync import Book


@pytest.fixture
def here():
    server = HostileDAV()
    server.put("/alice/book/ann.vcf", card("ann", "Ann Lee"))
    yield server
    server.stop()


def added(server, tmp_path):
    book = Book(tmp_path)
    result = book.run("account", "add", "home", server.base, "--user", "alice", "--password-command", "echo secret")
    assert result.returncode == 0, result.stderr
    return book


def sync(book, **limits):
    """`contactsbook sync` with these limits in its environment."""
    return subprocess.run([os.environ["CONTACTSBOOK_BIN"], "sync", "--db", book.db], capture_output=True, text=True,
                          timeout=TIMEOUT, env={"HOME": str(book.tmp_path), "PATH": "/usr/bin:/bin", **limits})


def book_url(server):
    return f"{server.base}alice/book/"


def nothing_pulled(book):
    return book.sql("SELECT count(*) FROM contact")[0][0] == 0


# Deadlines.

def test_a_server_thinking_longer_than_the_low_speed_window_before_it_answers_is_waited_for(here, tmp_path):
    # Seen in bench/carddav-photos.py: Radicale took over 30 s to start the listing of 20,000 cards
    # on a loaded host, and libcurl's floor, counted from the request, stopped the sync. The floor
    # now counts from the answer's status line; the request's own limit bounds the thinking.
    book = added(here, tmp_path)
    here.think_report = 2.5

    result = sync(book, CONTACTSBOOK_LOW_SPEED_TIME="1")

    assert (result.returncode, result.stdout) == (0, "home: pulled 1, pushed 0, merged 0, conflicts 0\n"), result.stderr


def test_a_trickling_listing_is_not_bound_by_the_request_limit_but_stopped_by_the_low_speed_floor(here, tmp_path):
    # A listing or multiget grows with the book (a first download is every card in one answer), so
    # a limit on its whole time would cut an honest server on a slow link: the request limit bounds
    # answers held whole; a streamed one is bounded by the sync's limit and, once it comes, the floor.
    book = added(here, tmp_path)
    here.trickle_report = True

    result = sync(book, CONTACTSBOOK_REQUEST_TIMEOUT="1", CONTACTSBOOK_LOW_SPEED_TIME="2")

    assert result.returncode == 1
    assert result.stderr == (f"error: account home: REPORT {book_url(here)} received less than 1024 bytes a second "
                             "for 2 s (CONTACTSBOOK_LOW_SPEED_LIMIT and CONTACTSBOOK_LOW_SPEED_TIME set that floor); "
                             "stopped\n")
    assert nothing_pulled(book)


def test_a_trickle_under_the_low_speed_floor_is_stopped_naming_the_floor(here, tmp_path):
    book = added(here, tmp_path)
    here.trickle_report = True

    result = sync(book, CONTACTSBOOK_LOW_SPEED_TIME="1")

    assert result.returncode == 1
    assert result.stderr == (f"error: account home: REPORT {book_url(here)} received less than 1024 bytes a second "
                             "for 1 s (CONTACTSBOOK_LOW_SPEED_LIMIT and CONTACTSBOOK_LOW_SPEED_TIME set that floor); "
                             "stopped\n")


def test_a_trickle_is_stopped_at_the_sync_deadline_when_that_comes_first(here, tmp_path):
    book = added(here, tmp_path)
    here.trickle_report = True

    result = sync(book, CONTACTSBOOK_SYNC_TIMEOUT="1")

    assert result.returncode == 1
    assert result.stderr == ("error: account home: the server's answers took longer than 1 s in all (the limit for "
                             "one sync; CONTACTSBOOK_SYNC_TIMEOUT sets it); stopped, what was saved before is kept\n")


def test_a_list_of_changes_truncated_for_ever_stops_at_the_sync_deadline(here, tmp_path):
    book = added(here, tmp_path)
    here.truncate_forever = True

    result = sync(book, CONTACTSBOOK_SYNC_TIMEOUT="1")

    assert result.returncode == 1
    assert result.stderr == ("error: account home: the server's answers took longer than 1 s in all (the limit for "
                             "one sync; CONTACTSBOOK_SYNC_TIMEOUT sets it); stopped, what was saved before is kept\n")
    assert here.truncations > 1  # it did follow the 507s, until the deadline
    assert nothing_pulled(book)
    # The token stays where it was: the next sync of an honest server starts from scratch.
    assert book.sql("SELECT sync_token FROM address_book WHERE account IS NOT NULL")[0][0] is None
    here.truncate_forever = False
    ok = sync(book)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("home: pulled 1,")


# Cancellation, in each front end, of a sync stuck in a slow request.

def test_ctrl_c_in_the_repl_stops_a_slow_sync_and_the_repl_answers_the_next_command(here, tmp_path):
    book = added(here, tmp_path)
    here.trickle_report = True
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TERM": "xterm", "LANG": "C.UTF-8",
           "XDG_STATE_HOME": str(tmp_path / "state"), "CONTACTSBOOK_HISTORY": ""}
    child = pexpect.spawn(binary(), ["--db", book.db], env=env, encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(24, 200))
    try:
        child.expect_exact("> ")
        child.send("sync\r")
        assert here.trickling.wait(TIMEOUT), "the sync never reached the slow answer"
        child.sendintr()
        child.expect_exact("account home: sync cancelled: what was pulled and pushed before is kept; sync again to go on")
        child.expect_exact("> ")
        child.send("list\r")
        child.expect_exact("No contacts")
        child.expect_exact("> ")
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert nothing_pulled(book)


def test_ctrl_c_in_the_repl_stops_an_import_too_keeping_nothing(tmp_path):
    # 40,000 cards are 20 batches: the Ctrl-C, sent when the progress line first shows, is seen
    # at the end of the first batch, long before the last.
    cards = "".join(f"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:P{i}\r\nN:P{i};Ann;;;\r\nEND:VCARD\r\n" for i in range(40000))
    (tmp_path / "big.vcf").write_text(cards)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TERM": "xterm", "LANG": "C.UTF-8", "CONTACTSBOOK_HISTORY": ""}
    child = pexpect.spawn(binary(), ["--db", str(tmp_path / "book.sqlite"), "--create"], env=env, encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(24, 200), cwd=str(tmp_path))
    try:
        child.expect_exact("> ")
        child.send("import big.vcf\r")
        child.expect_exact("Importing")
        child.sendintr()
        child.expect_exact("import cancelled: nothing was imported")
        child.expect_exact("> ")
        child.send("list\r")
        child.expect_exact("No contacts")
        child.expect_exact("> ")
    finally:
        child.close(force=True)


@pytest.mark.parametrize("framing", ["content-length", "newline"])
def test_cancel_request_over_rpc_stops_a_slow_sync_with_32800_and_the_next_request_answers(here, tmp_path, framing):
    book = added(here, tmp_path)
    here.trickle_report = True
    rpc = RpcProcess(tmp_path, framing=framing, db=book.db)
    try:
        rpc.request("initialize", {})
        rpc.send({"jsonrpc": "2.0", "id": "s", "method": "contacts/sync", "params": {"account": "home"}})
        assert here.trickling.wait(TIMEOUT), "the sync never reached the slow answer"
        # Another request while the sync runs is answered at once: busy, naming the running one.
        _, busy = rpc.request("contacts/list", {})
        assert busy["error"]["code"] == -32018, busy
        assert busy["error"]["data"] == {"running": "s"}

        rpc.notify("$/cancelRequest", {"id": "s"})

        _, cancelled = rpc.until_response("s")
        assert cancelled["error"] == {"code": -32800, "message": "request cancelled"}
        _, listed = rpc.request("contacts/list", {})
        assert "result" in listed, listed
        assert rpc.close_and_wait() == 0
    finally:
        rpc.kill()
    assert nothing_pulled(book)


def test_a_large_pull_cancelled_in_its_second_multiget_keeps_nothing_of_the_first(here, tmp_path):
    # 600 cards are two multigets (500 a batch); a pull of 100 or more is written batch by batch
    # while it downloads, inside one transaction: cancelled, the first batch must not stay.
    for number in range(600):
        here.put(f"/alice/book/c{number}.vcf", card(f"c{number}", f"Cy Number{number}"))
    book = added(here, tmp_path)
    here.trickle_multiget_after = 1
    rpc = RpcProcess(tmp_path, framing="newline", db=book.db)
    try:
        rpc.send({"jsonrpc": "2.0", "id": 1, "method": "contacts/sync", "params": {"account": "home"}})
        assert here.trickling.wait(TIMEOUT), "the second multiget never started"
        rpc.notify("$/cancelRequest", {"id": 1})
        _, cancelled = rpc.until_response(1)
        assert cancelled["error"]["code"] == -32800, cancelled
        assert rpc.close_and_wait() == 0
    finally:
        rpc.kill()
    assert here.multigets == 2
    assert nothing_pulled(book)
    assert book.sql("SELECT sync_token FROM address_book WHERE account IS NOT NULL")[0][0] is None
    # The next sync pulls everything, once.
    here.trickle_multiget_after = None
    again = sync(book)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("home: pulled 601,"), again.stdout
    assert book.sql("SELECT count(*) FROM contact")[0][0] == 601


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_notifications_cancelled_over_mcp_stops_a_slow_sync_and_the_next_call_answers(here, tmp_path, mode):
    book = added(here, tmp_path)
    here.trickle_report = True
    finished = []
    params = StdioServerParameters(command=binary(), args=["--mcp", "--db", book.db], env=isolated_env(tmp_path))

    async def body():
        async with Client(params, mode=mode, read_timeout_seconds=TIMEOUT) as c:
            scope = anyio.CancelScope()

            async def cancel_once_slow():
                assert await anyio.to_thread.run_sync(here.trickling.wait, TIMEOUT)
                scope.cancel()  # the SDK sends notifications/cancelled for the abandoned call

            async with anyio.create_task_group() as group:
                group.start_soon(cancel_once_slow)
                with scope:
                    finished.append(await c.call_tool("sync", {"account": "home"}))
            # Answered once the sync has stopped, well before the 30 s low-speed floor would
            # have ended the slow request.
            searched = await c.call_tool("search", {"text": ""})
            assert not searched.is_error, searched.content[0].text
    anyio.run(body)
    assert finished == []
    assert nothing_pulled(book)
