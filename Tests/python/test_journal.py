"""The change journal end to end, across separate processes on one book: undo in a later run,
refusals naming the later change, notices to a running --rpc session, and kill -9 during the
undo of a large import."""
import os
import signal
import sqlite3
import subprocess
import sys

import pytest

from rpc_client import TIMEOUT, binary, isolated_env

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench")


def run(tmp_path, db, script, *args):
    return subprocess.run([binary(), "--db", db, "--create", *args], input=script, capture_output=True, text=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT)


def add(tmp_path, db, given, family):
    result = run(tmp_path, db, f"add\ngiven {given}\nfamily {family}\nsave\n")
    assert result.returncode == 0, result.stderr


def test_delete_in_one_run_undo_in_the_next(tmp_path):
    db = str(tmp_path / "book.sqlite")
    add(tmp_path, db, "Bob", "Stone")
    result = run(tmp_path, db, "delete bob stone\n")
    assert "Deleted Bob Stone" in result.stdout
    # the next run
    result = run(tmp_path, db, "undo\nlist\nhistory bob\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Undid: deleted Bob Stone"
    assert any(line.startswith("1  Bob Stone") for line in lines)
    assert any("line  deleted Bob Stone  (undone)" in line for line in lines)


def test_undo_refused_after_a_later_edit_from_another_process(tmp_path):
    db = str(tmp_path / "book.sqlite")
    add(tmp_path, db, "Bob", "Stone")                                          # change 1
    run(tmp_path, db, "show bob\nedit\norganization Acme\nsave\n")            # change 2
    # another process edits the same contact over JSON-RPC             # change 3
    rpc = "\n".join([
        '{"jsonrpc":"2.0","id":1,"method":"contacts/show","params":{"contact":"bob"}}',
        '{"jsonrpc":"2.0","id":2,"method":"contact/edit"}',
        '{"jsonrpc":"2.0","id":3,"method":"form/title","params":{"value":"CEO"}}',
        '{"jsonrpc":"2.0","id":4,"method":"form/save"}',
    ]) + "\n"
    assert run(tmp_path, db, rpc, "--rpc").returncode == 0
    # When: change 2 is undone in a third process
    result = run(tmp_path, db, "undo 2\nshow bob\n")
    # Then: refused, naming the later change; nothing changed
    assert result.returncode == 1
    assert 'Cannot undo "edited Bob Stone": change #3 (edited Bob Stone, from rpc' in result.stderr
    assert "Acme" in result.stdout and "CEO" in result.stdout
    # And the most recent change can be undone, by anyone
    result = run(tmp_path, db, "undo\nundo 2\nshow bob\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == ["Undid: edited Bob Stone", "Undid: edited Bob Stone"]
    assert "Acme" not in result.stdout and "CEO" not in result.stdout


@pytest.mark.parametrize("framing", ["content-length", "ndjson"])
def test_an_rpc_session_hears_of_another_process_add(spawn_rpc, tmp_path, framing):
    rpc = spawn_rpc(framing)
    rpc.request("initialize", {"capabilities": {}})
    rpc.notify("initialized", {})
    notes, _ = rpc.request("contacts/list")
    assert notes == []
    # When: another process adds a contact to the same book
    add(tmp_path, rpc.db, "Zed", "Other")
    # Then: told without asking, marked as from elsewhere (next_message waits at most TIMEOUT)
    note = rpc.next_message()
    assert note == {"jsonrpc": "2.0", "method": "session/dataChanged",
                    "params": {"topic": "contacts", "kind": "created", "ids": ["1"], "external": True}}
    # And its own changes are told once, as its own
    notes, response = rpc.request("contacts/delete", {"contact": "1"})
    assert [n["params"] for n in notes if n["method"] == "session/dataChanged"] == [
        {"topic": "contacts", "kind": "deleted", "ids": ["1"], "external": False}]
    assert rpc.close_and_wait() == 0


def test_a_piped_line_session_gets_nothing_extra(tmp_path):
    db = str(tmp_path / "book.sqlite")
    proc = subprocess.Popen([binary(), "--db", db, "--create"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=isolated_env(tmp_path))
    proc.stdin.write("list\n")
    proc.stdin.flush()
    assert proc.stdout.readline().startswith("#")
    add(tmp_path, db, "Zed", "Other")
    out, err = proc.communicate("list\n", timeout=TIMEOUT)
    assert "Changed elsewhere" not in out + err
    assert "Zed Other" in out


def test_kill_9_during_the_undo_of_a_large_import_leaves_the_book_whole(tmp_path):
    # Given: 5,000 cards imported into an empty book (a debug build undoes them in seconds)
    count = 5000
    subprocess.run([sys.executable, os.path.join(BENCH, "gen.py"), str(count), str(tmp_path)], check=True,
                   capture_output=True, timeout=120)
    db = str(tmp_path / "book.sqlite")
    result = subprocess.run([binary(), "--db", db, "--create", "import", str(tmp_path / f"cards-{count}.vcf")],
                            capture_output=True, text=True, env=isolated_env(tmp_path), timeout=300)
    assert result.returncode == 0, result.stderr
    # When: killed while its undo is writing (its -wal file growing)
    proc = subprocess.Popen([binary(), "--db", db], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=isolated_env(tmp_path))
    proc.stdin.write(b"undo\n")
    proc.stdin.flush()
    wal = db + "-wal"
    while proc.poll() is None and (not os.path.exists(wal) or os.path.getsize(wal) < 100_000):
        pass
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=TIMEOUT)
    # Then: the book is whole, with the import all there or all gone, and the journal agreeing
    book = sqlite3.connect(db)
    assert book.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    contacts = book.execute("SELECT COUNT(*) FROM contact").fetchone()[0]
    kept = book.execute("SELECT n FROM contact_count").fetchone()[0]
    undone = book.execute("SELECT undone FROM change_set WHERE kind = 'import'").fetchone()[0]
    assert contacts == kept
    assert (contacts, undone) in [(count, 0), (0, 1)]
    book.close()
    # And the next run works on it
    result = subprocess.run([binary(), "--db", db], input="undo\n" if undone == 0 else "redo\n", capture_output=True,
                            text=True, env=isolated_env(tmp_path), timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Undid: imported" if undone == 0 else "Redid: imported")
