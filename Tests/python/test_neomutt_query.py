"""neomutt's address query end to end, driven in tmux as a person would: `Q` lists a group as one
item holding its members' addresses, and Ctrl-T (complete-query) at the To: prompt expands part of
the group's name to those addresses.

`TmuxScreen` and `start_neomutt` are the reusable part: any `query_command` (ours, or a directory's
through ours) can be driven with them. Every wait polls the pane up to a deadline; none sleeps
for a fixed time."""
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time

import pytest

from rpc_client import TIMEOUT, binary, isolated_env


class TmuxScreen:
    """One program in a detached tmux session of a fixed size, on a tmux server of its own (its own
    socket, no tmux.conf), so nothing of the person running the tests gets in."""

    def __init__(self, command, env, width=160, height=40):
        self.env = env
        # A short directory of its own (a socket's path is limited to about 100 bytes), removed on
        # close: tmux leaves its socket file behind when its server is killed.
        self.directory = tempfile.mkdtemp(prefix="cb-tmux-")
        self.socket = os.path.join(self.directory, "socket")
        self.width, self.height = width, height
        started = self.tmux("new-session", "-d", "-s", "main", "-x", str(width), "-y", str(height), command)
        if started.returncode != 0:
            shutil.rmtree(self.directory, ignore_errors=True)
            pytest.skip(f"tmux cannot start a session: {started.stderr.strip()}")

    def tmux(self, *args):
        return subprocess.run(["tmux", "-u", "-f", "/dev/null", "-S", self.socket, *args],
                              capture_output=True, text=True, env=self.env, timeout=TIMEOUT)

    def keys(self, *keys):
        """Keys by tmux's names (`Enter`, `C-t`, `q`)."""
        result = self.tmux("send-keys", "-t", "main", *keys)
        assert result.returncode == 0, result.stderr

    def type(self, text):
        """Text typed literally, Unicode included."""
        result = self.tmux("send-keys", "-t", "main", "-l", text)
        assert result.returncode == 0, result.stderr

    def screen(self):
        result = self.tmux("capture-pane", "-p", "-t", "main")
        assert result.returncode == 0, f"the session ended: {result.stderr.strip()}"
        return result.stdout

    def wait_for(self, condition, what, deadline=TIMEOUT):
        """Polls the pane until `condition(screen)` holds; fails showing the last screen."""
        end = time.monotonic() + deadline
        while True:
            screen = self.screen()
            if condition(screen):
                return screen
            if time.monotonic() > end:
                pytest.fail(f"no {what} within {deadline} s; the screen was:\n{screen}")
            time.sleep(0.05)  # a poll interval, not a wait for anything

    def close(self):
        self.tmux("kill-server")
        shutil.rmtree(self.directory, ignore_errors=True)


def start_neomutt(tmp_path, query_command, extra_rc="", width=160, height=40):
    """neomutt on an empty mailbox with a neomuttrc of its own in a temporary HOME, ready on its
    index; skips only when neomutt or tmux is not there to start. The caller closes it."""
    env = isolated_env(tmp_path)
    for program in ("neomutt", "tmux"):
        if shutil.which(program, path=env["PATH"]) is None:
            pytest.skip(f"{program} is not installed (scripts/setup installs it)")
    env["TERM"] = "xterm-256color"
    rc = os.path.join(env["HOME"], ".neomuttrc")
    with open(rc, "w", encoding="utf-8") as file:
        file.write("\n".join([
            f'set query_command = "{query_command}"',
            # The address column wide enough for a group's members, as the README suggests.
            'set query_format = "%4c %t %-25.25n %-70.70a %?e?(%e)?"',
            'set editor = "true"',  # the body's editor returns at once
            "unset abort_unmodified",  # so that the unchanged body still reaches the compose screen
            'set from = "me@example.org"',
            'set realname = "Me"',
            # Nothing that asks a question at start or on the way: no mail folder, no key waits.
            f'set folder = "{tmp_path}"',
            'set spoolfile = "/dev/null"',
            "unset mbox",
            "unset record",
            "set nowait_key",
            "unset help",
            extra_rc, ""]))
    screen = TmuxScreen(f"neomutt -n -F {shlex.quote(rc)} -f /dev/null", env, width, height)
    try:
        screen.wait_for(lambda s: "NeoMutt" in s, "neomutt index")
    except BaseException:
        screen.close()
        raise
    return screen


def contactsbook(tmp_path, db, *args, script=None):
    result = subprocess.run([binary(), "--db", db, *args], input=script, capture_output=True, text=True,
                            env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def book(tmp_path):
    """A book of three contacts with Unicode names, two of them in the group "Équipe vélo"."""
    db = str(tmp_path / "book.sqlite")
    contactsbook(tmp_path, db, "--create", script="".join(
        f"add\ngiven {given}\nfamily {family}\nemail {email}\nsave\n"
        for given, family, email in [("Zoë", "Ångström", "zoe@example.org"),
                                     ("José", "Núñez", "jose@example.org"),
                                     ("Chloé", "Ørsted", "chloe@example.org")]))
    assert contactsbook(tmp_path, db, "group", "new", "Équipe vélo") == "Made group Équipe vélo\n"
    added = contactsbook(tmp_path, db, "group", "add", "Équipe vélo", "Zoë Ångström", "José Núñez")
    assert "(2 members)" in added
    return db


@pytest.fixture
def neomutt(tmp_path, book):
    assert '"' not in binary() + book and "\\" not in binary() + book  # quoted into neomuttrc as is
    screen = start_neomutt(tmp_path, f"{shlex.quote(binary())} query --db {shlex.quote(book)} '%s'")
    yield screen
    screen.close()


# The members' addresses as `query` joins them: each member's first address, in the list's order.
MEMBERS = "zoe@example.org, jose@example.org"


def entries(screen):
    """The query menu's numbered lines (query_format starts each with its number)."""
    return [line for line in screen.splitlines() if re.match(r"^\s*\d+ ", line)]


def test_query_lists_the_group_as_one_item_with_its_members_addresses(neomutt):
    neomutt.keys("Q")
    neomutt.wait_for(lambda s: "Query:" in s, "Query: prompt")
    neomutt.type("équipe")
    neomutt.keys("Enter")
    screen = neomutt.wait_for(lambda s: entries(s), "query menu entry")
    listed = entries(screen)
    assert len(listed) == 1, screen
    assert "Équipe vélo" in listed[0] and MEMBERS in listed[0] and "group · 2 addresses" in listed[0], screen
    assert "chloe@example.org" not in screen


def test_complete_query_at_to_expands_the_group_to_its_members(neomutt):
    neomutt.keys("m")
    neomutt.wait_for(lambda s: re.search(r"^To: *$", s, re.M), "To: prompt")
    neomutt.type("vél")
    neomutt.keys("C-t")
    screen = neomutt.wait_for(lambda s: re.search(r"^To: \S", s, re.M) and "vél" not in s, "completed To:")
    assert re.search(rf"^To: {re.escape(MEMBERS)} *$", screen, re.M), screen
    # neomutt takes the line as two recipients: the compose screen lists both in its To: field.
    neomutt.keys("Enter")
    neomutt.wait_for(lambda s: re.search(r"^Subject: *$", s, re.M), "Subject: prompt")
    neomutt.type("Sortie du dimanche")
    neomutt.keys("Enter")
    screen = neomutt.wait_for(lambda s: "Sortie du dimanche" in s and "From:" in s, "compose screen")
    to = [line for line in screen.splitlines() if re.match(r"^\s*To: ", line)]
    assert len(to) == 1 and MEMBERS in to[0] and "chloe@example.org" not in screen, screen


def test_complete_query_names_the_one_member_of_a_group_of_one_by_its_own_name(tmp_path, book, neomutt):
    # neomutt names a lone address after the query line's name: the member, not the group, must be named.
    contactsbook(tmp_path, book, "group", "new", "Tandem")
    contactsbook(tmp_path, book, "group", "add", "Tandem", "Chloé Ørsted")
    neomutt.keys("m")
    neomutt.wait_for(lambda s: re.search(r"^To: *$", s, re.M), "To: prompt")
    neomutt.type("tand")
    neomutt.keys("C-t")
    screen = neomutt.wait_for(lambda s: re.search(r"^To: \S", s, re.M) and "tand" not in s, "completed To:")
    assert re.search(r"^To: Chloé Ørsted <chloe@example.org> *$", screen, re.M), screen


def test_query_lists_the_book_and_the_organisations_directory(tmp_path, book, ldap_directory):
    # The session's directory of 10,000 people (conftest.people_directory) holds 25 Chloé Ødegaards;
    # the book one Chloé Ørsted. Both answer `chloé ø`.
    contactsbook(tmp_path, book, "directory", "add", "corp", ldap_directory.url, "--plaintext")
    screen = start_neomutt(tmp_path, f"{shlex.quote(binary())} query --db {shlex.quote(book)} '%s'")
    try:
        screen.keys("Q")
        screen.wait_for(lambda s: "Query:" in s, "Query: prompt")
        screen.type("chloé ø")
        screen.keys("Enter")
        shown = screen.wait_for(lambda s: len(entries(s)) == 26, "the query menu's 26 entries")
        listed = entries(shown)
        # neomutt shows the menu sorted by name, so the book's line (first in `query`'s
        # answer) is among the others: Ødegaard sorts before Ørsted.
        (own,) = [line for line in listed if "chloe@example.org" in line]
        assert "Chloé Ørsted" in own and "(home)" in own, shown
        directory = [line for line in listed if line != own]
        assert all("Chloé Ødegaard" in line and "(corp directory · Example Corp)" in line for line in directory), shown
        found = sorted(re.search(r"p\d+@corp\.example\.org", line).group(0) for line in directory)
        assert found == sorted(f"p{86 + 400 * r}@corp.example.org" for r in range(25)), shown
        # Mail to the entry under the cursor, the first: neomutt's To: prompt holds its name and address.
        first = re.search(r"<([\w.+-]+@[\w.-]+)>", listed[0]).group(1)
        screen.keys("m")
        prompt = screen.wait_for(lambda s: re.search(r"^To: \S", s, re.M), "To: prompt")
        assert re.search(rf"^To: Chloé \S+ <{re.escape(first)}> *$", prompt, re.M), prompt
    finally:
        screen.close()
