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


def test_each_shape_read_by_hand_answers_as_the_whole_command_tree_does(tmp_path):
    # `sync ...` is read without ArgumentParser (CommandLineEntry.swift, a timer's every run); a
    # global option before `sync` sends the same line through the whole tree. Same words and statuses.
    make_book(tmp_path)
    db = str(tmp_path / "book.sqlite")
    missing = str(tmp_path / "missing.sqlite")
    shapes = [
        ["--db", db], ["nope", "--db", db], ["--db=" + db, "nope"], ["--db", db, "nope", "other"],
        ["--db", missing], ["--db", db, "--create"], ["--db", db, "--log-level", "nope"],
        ["--db", db, "--log-level=error"], ["--db", db, "--", "nope"], ["--db", db, ""], ["--db", db, "-x"],
        ["--db", db, "--db", db], ["--db", "-"], ["--db"], ["--db", db, "help"], ["--db", db, "-h"],
        ["--db", db, "--create=yes"], [],
    ]
    env = isolated_env(tmp_path)
    for shape in shapes:
        by_hand, tree = (subprocess.run([binary(), *prefix, "sync", *shape], capture_output=True, text=True, env=env,
                                        timeout=TIMEOUT, stdin=subprocess.DEVNULL)
                         for prefix in ([], ["--log-level", "warning"]))
        assert (by_hand.returncode, by_hand.stdout, by_hand.stderr) == (tree.returncode, tree.stdout, tree.stderr), shape
    # And the comparison is not between two failures.
    assert run(tmp_path, "sync", "nope").stderr == "error: there is no account named nope\n"
