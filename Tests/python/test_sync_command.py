"""`contactsbook sync` without a server to reach: what a timer's log shows when there is nothing
to sync or the account named is not there. The command runs the list's `sync` use case, as the
REPL does, and keeps its own words and exit statuses (test_carddav_sync.py syncs real servers)."""
import subprocess

from rpc_client import TIMEOUT, binary, isolated_env


def run(tmp_path, *args):
    db = str(tmp_path / "book.sqlite")
    return subprocess.run([binary(), *args, "--db", db], capture_output=True, text=True, env=isolated_env(tmp_path),
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL)


def make_book(tmp_path):
    assert run(tmp_path, "--create").returncode == 0


def test_no_accounts_is_said_on_stderr_and_succeeds(tmp_path):
    make_book(tmp_path)
    result = run(tmp_path, "sync")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "No accounts to sync.\n")


def test_an_account_that_is_not_there_fails_naming_it(tmp_path):
    make_book(tmp_path)
    result = run(tmp_path, "sync", "nope")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", "error: there is no account named nope\n")


def test_a_missing_book_is_not_made(tmp_path):
    result = run(tmp_path, "sync")
    assert result.returncode == 2 and result.stdout == ""
    assert "no book at" in result.stderr and not (tmp_path / "book.sqlite").exists()
