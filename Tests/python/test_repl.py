"""End-to-end tests of the interactive REPL under a pseudo-terminal.

Run:  CONTACTSBOOK_BIN=.build/debug/contactsbook python3 -m pytest Tests/python/test_repl.py
Needs: python3 with pexpect (pip install pexpect), and a built `contactsbook`.

Each test gets its own HOME, state folder, history file and database, so nothing on the
machine (a ~/.editrc, a real history) changes what it sees. pexpect's timeouts are upper
bounds on waiting for output, never sleeps: the tests wait for what the program prints.
"""

import os
import re
import signal
import sqlite3
import subprocess
import tempfile
import unicodedata
import unittest

import pexpect

BIN = os.environ.get("CONTACTSBOOK_BIN", ".build/debug/contactsbook")
PROMPT = "> "
CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SGR = re.compile(r"\x1b\[[0-9;]*m")  # colour codes; libedit's cursor moves are other sequences
HOSTILE_GIVEN = "Eve\x1b[2J\x1b]0;pwned\x07"
CTRL_C, CTRL_P, CTRL_R, CTRL_U = "\x03", "\x10", "\x12", "\x15"


class REPLTestCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.db = os.path.join(self.dir.name, "contacts.sqlite")
        self.history = os.path.join(self.dir.name, "history")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.dir.name,
            "XDG_STATE_HOME": os.path.join(self.dir.name, "state"),
            "XDG_DATA_HOME": os.path.join(self.dir.name, "data"),
            "CONTACTSBOOK_HISTORY": self.history,
            "TERM": "xterm",
            "LANG": "C.UTF-8",
        }

    def spawn(self, unset=(), columns=100, cwd=None, **env):
        environment = {k: v for k, v in {**self.env, **env}.items() if k not in unset}
        child = pexpect.spawn(BIN, ["--db", self.db, "--create"], env=environment, cwd=cwd,
                              encoding="utf-8", timeout=20, dimensions=(24, columns))
        self.addCleanup(child.close, force=True)
        child.expect_exact(PROMPT)
        return child

    def send_ctrl_d(self, child):
        """Sends Ctrl-D once libedit has the terminal in its own mode.

        libedit prints the prompt before it switches the terminal from the line discipline's
        mode to its own, and a Ctrl-D that arrives in between is an end of line to the kernel
        that the switch drops (a person is never that quick). Its mode turns echo off, so the
        test waits for that, as pexpect does for a password prompt, then sends Ctrl-D once.
        """
        self.assertTrue(child.waitnoecho(timeout=20), "libedit never took the terminal")
        child.sendeof()

    def ctrl_d(self, child):
        """Leaves with Ctrl-D at a prompt; returns the exit status."""
        self.send_ctrl_d(child)
        child.expect(pexpect.EOF)
        child.close()
        return child.exitstatus

    def run_line(self, child, line):
        """Sends a line and returns everything printed up to the next prompt."""
        child.send(line + "\r")
        child.expect_exact(PROMPT)
        return child.before

    def quit(self, child):
        child.send("quit\r")
        child.expect(pexpect.EOF)
        child.close()
        return child.exitstatus

    def add_through_a_pipe(self, given, family):
        """Stores a contact with the line session: a terminal cannot type a raw escape."""
        script = f"add\ngiven {given}\nfamily {family}\nsave\nquit\n"
        subprocess.run([BIN, "--db", self.db, "--create"], input=script.encode(), env=self.env,
                       capture_output=True, check=True, timeout=60)

    def add_hostile_contact(self, given, family):
        """Stores a contact whose given name holds control characters. The form refuses them,
        so the name is put in as another program sharing the file (or a careless import) would."""
        self.add_through_a_pipe("Placeholder", family)
        with sqlite3.connect(self.db) as db:
            db.execute("UPDATE contact SET given = ? WHERE family = ?", (given, family))


class PromptAndCompletionTests(REPLTestCase):
    def prompt_path(self, printed):
        """The scene path the last prompt showed, without libedit's cursor moves."""
        return CSI.sub("", printed.replace("\r", "\n")).split("\n")[-1].strip()

    def test_prompt_shows_the_scene_stack(self):
        child = self.spawn(NO_COLOR="1")
        root = self.prompt_path(child.before)
        self.assertIn("contacts", root)
        pushed = self.prompt_path(self.run_line(child, "add"))
        self.assertTrue(pushed.startswith(root + " › "), pushed)
        self.assertEqual(self.prompt_path(self.run_line(child, "back")), root)
        self.assertEqual(self.quit(child), 0)

    def test_tab_completes_an_action(self):
        child = self.spawn()
        out = self.run_line(child, "he\t")  # completes to "help "
        self.assertIn("leave the program", out)
        self.assertEqual(self.quit(child), 0)

    def test_tab_lists_several_matches(self):
        child = self.spawn()
        child.send("s\t")
        child.expect_exact("stack")
        child.send(CTRL_U)
        self.assertEqual(self.quit(child), 0)

    def test_tab_inserts_names_of_several_words_as_merge_reads_them_back(self):
        self.add_through_a_pipe("Bob", "Stone")
        self.add_through_a_pipe("Bob", "Marley")
        child = self.spawn(NO_COLOR="1")
        child.send("merge bob\t")  # two Bobs: the common part, its quote left open
        child.expect_exact("Bob Stone")
        child.send("S\t")  # one: quoted and closed, so Enter reads one name
        child.expect_exact('tone" ')  # libedit redraws the end of the line only
        child.send("bob\t")
        child.expect_exact("Bob Marley")
        child.send("M\t")
        child.expect_exact('arley" ')
        out = self.run_line(child, "")
        self.assertIn("Merged #2 Bob Marley into #1 Bob Stone", out)
        self.assertNotIn("matches 2 contacts", out)
        self.assertEqual(self.quit(child), 0)

    def test_edit_from_the_list_prompts_with_the_contacts_name(self):
        self.add_through_a_pipe("Ann", "Lee")
        child = self.spawn(NO_COLOR="1")
        root = self.prompt_path(child.before)
        form = self.prompt_path(self.run_line(child, "edit 1"))
        self.assertEqual(form, root + " › Ann Lee › edit")
        self.run_line(child, "title Chair")
        detail = self.prompt_path(self.run_line(child, "save"))  # back on the contact, as saved
        self.assertEqual(detail, root + " › Ann Lee")
        self.assertEqual(self.quit(child), 0)

    def test_tab_completes_file_names_for_import_and_export(self):
        work = os.path.join(self.dir.name, "work")
        os.makedirs(os.path.join(self.dir.name, "books"))
        os.makedirs(work)
        with open(os.path.join(work, "data.vcf"), "w", encoding="utf-8") as file:
            file.write("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nEND:VCARD\r\n")
        child = self.spawn(NO_COLOR="1", cwd=work)
        child.send("import da\t")  # the working folder
        child.expect_exact("ta.vcf ")
        self.assertIn("1 added", self.run_line(child, ""))
        child.send("export ~/bo\t")  # the home folder: a folder goes on without a space
        child.expect_exact("oks/")
        out = self.run_line(child, "out.vcf")
        self.assertTrue(os.path.exists(os.path.join(self.dir.name, "books", "out.vcf")), out)
        self.assertEqual(self.quit(child), 0)

    def test_utf8_names_are_typed_and_shown(self):
        child = self.spawn()
        self.run_line(child, "add")
        self.run_line(child, "given José")
        self.run_line(child, "family 山田")
        self.run_line(child, "save")
        out = self.run_line(child, "list")
        self.assertIn("José", out)
        self.assertIn("山田", out)
        self.assertEqual(self.quit(child), 0)


class KeysAndHistoryTests(REPLTestCase):
    def test_history_is_recalled_after_a_restart(self):
        child = self.spawn()
        self.run_line(child, "help")
        self.assertEqual(self.quit(child), 0)
        with open(self.history, encoding="utf-8") as file:
            self.assertEqual(file.readline().strip(), "_HiStOrY_V2_")

        child = self.spawn()
        out = self.run_line(child, CTRL_P + CTRL_P)  # quit, then help
        self.assertIn("leave the program", out)
        self.assertEqual(self.quit(child), 0)

    def test_history_survives_the_process_being_killed(self):
        # The REPL ends without any chance to clean up (SIGKILL: a crash, a closed terminal
        # window's kill, an OOM kill): what was typed is kept all the same.
        child = self.spawn()
        self.run_line(child, "help")
        child.kill(signal.SIGKILL)
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.signalstatus, signal.SIGKILL)  # ended by the signal, not by quit

        child = self.spawn()
        out = self.run_line(child, CTRL_P)
        self.assertIn("leave the program", out)  # `help` recalled and run again
        self.assertEqual(self.quit(child), 0)

    def test_history_defaults_to_the_xdg_state_folder(self):
        child = self.spawn(unset=("CONTACTSBOOK_HISTORY",))
        self.run_line(child, "help")
        self.assertEqual(self.quit(child), 0)
        folder = os.path.join(self.dir.name, "state", "contactsbook")
        self.assertTrue(os.path.isfile(os.path.join(folder, "history")))
        self.assertEqual(os.stat(folder).st_mode & 0o777, 0o700)

    def test_empty_override_disables_history(self):
        child = self.spawn(CONTACTSBOOK_HISTORY="")
        self.run_line(child, "help")
        self.assertEqual(self.quit(child), 0)
        self.assertFalse(os.path.exists(self.history))
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, "state", "contactsbook", "history")))

    def test_ctrl_c_cancels_the_line_and_keeps_the_session(self):
        child = self.spawn()
        child.send("bogus words")
        child.send(CTRL_C)
        child.expect_exact(PROMPT)  # a fresh prompt, the line dropped
        out = self.run_line(child, "help")
        self.assertNotIn("unknown command", out)
        self.assertIn("leave the program", out)
        self.assertTrue(child.isalive())
        self.assertEqual(self.quit(child), 0)

    def test_ctrl_c_in_a_history_search_cancels_the_search_and_keeps_the_session(self):
        # libedit's Ctrl-R ends its read as an end of file on a signal: that is no Ctrl-D
        child = self.spawn(NO_COLOR="1")
        self.run_line(child, "search lee")
        self.assertTrue(child.waitnoecho(timeout=20), "libedit never took the terminal")
        child.send(CTRL_R + "sea")
        child.expect_exact("sea")
        child.send(CTRL_C)
        # a fresh prompt on a line of its own (the search redraws the old one), not the end
        child.expect_exact("\ncontacts> ")
        out = self.run_line(child, "help")
        self.assertIn("leave the program", out)
        self.assertNotIn("No matches", out)  # the searched line was dropped, not run
        self.assertTrue(child.isalive())
        self.assertEqual(self.quit(child), 0)

    def test_ctrl_d_on_an_empty_line_leaves(self):
        child = self.spawn()
        self.assertEqual(self.ctrl_d(child), 0)

    def test_an_earlier_failure_does_not_make_the_exit_status_1(self):
        # A person corrects a mistake and goes on: the session did not end on an error
        child = self.spawn()
        self.assertIn("error", self.run_line(child, "bogus"))
        self.run_line(child, "help")
        self.assertEqual(self.ctrl_d(child), 0)

    def test_a_typo_is_answered_with_the_nearest_command(self):
        child = self.spawn(NO_COLOR="1")
        out = self.run_line(child, "serach lee")
        self.assertIn("did you mean search?", out)
        self.assertNotIn("here you can use", out)
        self.assertIn("did you mean quit?", self.run_line(child, "qiut"))
        self.assertEqual(self.quit(child), 0)

    def test_a_session_that_ends_on_an_error_exits_1(self):
        child = self.spawn()
        self.run_line(child, "help")
        self.assertIn("error", self.run_line(child, "bogus"))
        self.assertEqual(self.ctrl_d(child), 1)


class WelcomeTests(REPLTestCase):
    HINT = "Type help to list the commands; Tab completes."

    def test_first_start_greets_with_the_book_and_hints_then_later_starts_only_greet(self):
        # Given a book with two contacts and no history file yet
        self.add_through_a_pipe("Ann", "Lee")
        self.add_through_a_pipe("Bo", "Ek")
        self.assertFalse(os.path.exists(self.history))
        # When the REPL starts
        child = self.spawn(NO_COLOR="1")
        first = child.before.replace("\r", "")
        # Then it names the book and its size, then hints at help and Tab
        self.assertIn(f"Book {self.db} · 2 contacts\n{self.HINT}\n", first)
        self.run_line(child, "help")
        self.assertEqual(self.quit(child), 0)
        # When it starts again (the history file now exists)
        child = self.spawn(NO_COLOR="1")
        again = child.before.replace("\r", "")
        # Then it greets without the hint
        self.assertIn(f"Book {self.db} · 2 contacts\n", again)
        self.assertNotIn(self.HINT, again)
        self.assertEqual(self.quit(child), 0)


class OutputTests(REPLTestCase):
    def test_colours_on_a_terminal(self):
        child = self.spawn()
        out = child.before + self.run_line(child, "bogus")
        self.assertRegex(out, SGR)
        self.assertIn("\x1b[31m", out)  # errors in red
        self.quit(child)

    def test_no_colours_with_no_color(self):
        child = self.spawn(NO_COLOR="1")
        out = child.before + self.run_line(child, "bogus") + self.run_line(child, "help")
        self.assertNotRegex(out, SGR)
        self.quit(child)

    def test_no_colours_on_a_dumb_terminal(self):
        child = self.spawn(TERM="dumb")
        out = child.before + self.run_line(child, "bogus")
        self.assertNotRegex(out, SGR)
        self.quit(child)

    @staticmethod
    def columns(text):
        """Display columns of a line: wide East Asian characters take two, combining marks none."""
        return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    def printed_lines(self, out):
        return [line for line in CSI.sub("", out).replace("\r", "").split("\n") if line.strip()]

    def test_tables_and_prose_fit_the_terminal_at_60_80_and_200_columns(self):
        note = "Plays cello in the orchestra on Sundays and teaches the young ones every week"
        script = "".join(f"add\ngiven {given}\nfamily {family}\nnotes {note}\nsave\n"
                         for given, family in (("太郎", "山田"), ("Zoe\u0308", "Ne\u0301meth")))
        subprocess.run([BIN, "--db", self.db, "--create"], input=script.encode(), env=self.env,
                       capture_output=True, check=True, timeout=60)
        for width in (60, 80, 200):
            child = self.spawn(NO_COLOR="1", columns=width)
            found = self.printed_lines(self.run_line(child, "search orchestra"))[1:-1]  # less the echo and prompt
            helped = self.printed_lines(self.run_line(child, "help"))[1:-1]
            for line in found + helped:
                self.assertLessEqual(self.columns(line), width, f"{width}: {line!r}")
            self.assertTrue(any("山田" in line for line in found), found)
            self.assertTrue(any("Zoe\u0308" in line for line in found), found)  # marks kept with their letters
            whole = "note: …in the orchestra on Sundays…" in "\n".join(found)
            if width != 80:  # 200 holds the whole table; 60 cannot, so the widest column is cut
                self.assertEqual(whole, width == 200, f"{width}: {found}")
            self.assertEqual(self.quit(child), 0)
        # a pipe gets the full text, whatever the width
        piped = subprocess.run([BIN, "--db", self.db], input="search orchestra\n", capture_output=True, text=True,
                               env=self.env, timeout=60)
        self.assertIn("note: …in the orchestra on Sundays…", piped.stdout)

    def test_one_shot_commands_on_a_terminal_fit_it_and_pipes_get_the_full_text(self):
        note = "Plays cello in the orchestra on Sundays and teaches the young ones every week"
        subprocess.run([BIN, "--db", self.db, "--create"], input=f"add\ngiven 太郎\nfamily 山田\nnotes {note}\nsave\n".encode(),
                       env=self.env, capture_output=True, check=True, timeout=60)
        for width in (60, 200):
            # `contactsbook search` and `show`, stdout a terminal of `width` columns
            for args in (["search", "orchestra"], ["show", "山田"]):
                child = pexpect.spawn(BIN, ["--db", self.db, *args], env={**self.env, "NO_COLOR": "1"},
                                      encoding="utf-8", timeout=20, dimensions=(24, width))
                out = child.read()
                child.close()
                self.assertEqual(child.exitstatus, 0, out)
                lines = self.printed_lines(out)
                self.assertTrue(any("山田" in line for line in lines), lines)
                for line in lines:
                    self.assertLessEqual(self.columns(line), width, f"{width} {args}: {line!r}")
                if args[0] == "show":  # the note wrapped at spaces at 60, whole at 200
                    self.assertEqual(any(note in line for line in lines), width == 200, lines)
        piped = subprocess.run([BIN, "--db", self.db, "show", "山田"], capture_output=True, text=True,
                               env=self.env, timeout=60)
        self.assertIn(note, piped.stdout)

    def test_a_name_holding_escape_sequences_is_shown_harmlessly(self):
        self.add_hostile_contact(HOSTILE_GIVEN, "Mallory")
        child = self.spawn()
        out = self.run_line(child, "list")
        self.assertIn("Mallory", out)
        match = re.search(r"^\s*(\d+)\s.*Mallory", out, re.MULTILINE)
        self.assertIsNotNone(match, out)
        out += self.run_line(child, f"show {match.group(1)}")  # its name reaches the prompt too
        self.assertNotIn("\x1b[2J", out)
        self.assertNotIn("\x1b]0;", out)
        self.assertNotIn("\x07", out)
        self.assertIn("?[2J", out)
        self.quit(child)


if __name__ == "__main__":
    unittest.main()


class ConfirmationTests(REPLTestCase):
    def test_delete_by_part_of_a_name_asks_with_the_full_name(self):
        self.add_through_a_pipe("Bob", "Smith")
        child = self.spawn()
        # No: nothing is deleted
        child.send("delete bo\r")
        child.expect_exact("Delete Bob Smith (#1)? [y/N] ")
        child.send("n\r")
        child.expect_exact("Nothing deleted")
        child.expect_exact(PROMPT)
        self.assertIn("Bob Smith", self.run_line(child, "list"))
        # Yes: deleted, and the session is not marked as failed
        child.send("delete bo\r")
        child.expect_exact("Delete Bob Smith (#1)? [y/N] ")
        child.send("y\r")
        child.expect_exact("Deleted Bob Smith")
        child.expect_exact(PROMPT)
        self.assertIn("No contacts yet", self.run_line(child, "list"))
        self.assertEqual(self.quit(child), 0)

    def test_delete_by_full_name_does_not_ask(self):
        self.add_through_a_pipe("Bob", "Smith")
        child = self.spawn()
        out = self.run_line(child, "delete bob smith")
        self.assertIn("Deleted Bob Smith", out)
        self.assertNotIn("[y/N]", out)
        self.assertEqual(self.quit(child), 0)

    def test_back_in_an_edited_form_asks_what_will_be_lost(self):
        child = self.spawn()
        self.run_line(child, "add")
        self.run_line(child, "given Bob")
        self.run_line(child, "family Smith")
        child.send("back\r")
        child.expect_exact("Drop 2 changes to the new contact (given, family)? [y/N] ")
        child.send("\r")  # no: the form stays open
        child.expect_exact("Still editing the new contact")
        child.expect_exact(PROMPT)
        self.assertIn("Bob", self.run_line(child, "review"))
        child.send("back\r")
        child.expect_exact("[y/N] ")
        child.send("yes\r")
        child.expect_exact("Cancelled: no contact was added; 2 changes dropped")
        child.expect_exact(PROMPT)
        self.assertIn("No contacts yet", self.run_line(child, "list"))
        self.assertEqual(self.quit(child), 0)

    def test_ctrl_d_in_an_edited_form_asks_before_quitting(self):
        child = self.spawn()
        self.run_line(child, "add")
        self.run_line(child, "given Bob")
        self.send_ctrl_d(child)
        child.expect_exact("Quit and drop 1 change to the new contact (given)? [y/N] ")
        child.send("n\r")
        child.expect_exact("Still editing the new contact")
        child.expect_exact(PROMPT)
        self.assertTrue(child.isalive())
        child.send("quit\r")
        child.expect_exact("[y/N] ")
        child.send("y\r")
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.exitstatus, 0)


class ChangedElsewhereTests(REPLTestCase):
    """The journal's notices: another process's change, told in one line before the next prompt."""

    def test_another_process_add_is_told_before_the_next_prompt_not_while_typing(self):
        child = self.spawn()
        child.send("lis")  # half a command typed
        subprocess.run([BIN, "--db", self.db, "--create"], input="add\ngiven Zed\nfamily Other\nsave\n", text=True,
                       capture_output=True, env=self.env, check=True, timeout=20)
        child.send("t\r")
        child.expect_exact(PROMPT)
        typed = child.before
        # the line typed was not interrupted: the list came out, with Zed in it
        self.assertIn("Zed Other", typed)
        self.assertNotIn("Changed elsewhere", typed.split("Zed Other")[0])
        # and the notice is the one line before this prompt (whose start, "contacts", ends the output)
        lines = [CSI.sub("", line).strip() for line in typed.splitlines() if CSI.sub("", line).strip()]
        self.assertEqual(lines[-2:], ["Changed elsewhere: contacts created #1", "contacts"])
        # once: the next command has no notice
        self.assertNotIn("Changed elsewhere", self.run_line(child, "list"))
        self.quit(child)


class JournalTests(REPLTestCase):
    """Undo, redo and purge at the prompt: purge asks, through the core's confirmation."""

    def test_purge_asks_in_the_repl_and_undo_brings_a_delete_back(self):
        self.add_through_a_pipe("Bob", "Stone")
        child = self.spawn()
        self.assertIn("Deleted Bob Stone", self.run_line(child, "delete bob stone"))
        self.assertIn("Undid: deleted Bob Stone", self.run_line(child, "undo"))
        self.assertIn("Redid: deleted Bob Stone", self.run_line(child, "redo"))
        # No: nothing erased
        child.send("purge bob\r")
        child.expect_exact("Erase Bob Stone (#1) for good, with its history? [y/N] ")
        child.send("n\r")
        child.expect_exact("Nothing purged")
        child.expect_exact(PROMPT)
        self.assertIn("Bob Stone", self.run_line(child, "trash"))
        # Yes: erased, with its history
        child.send("purge bob\r")
        child.expect_exact("Erase Bob Stone (#1) for good, with its history? [y/N] ")
        child.send("y\r")
        child.expect_exact("Purged 1 contact for good, with its history")
        child.expect_exact(PROMPT)
        self.assertIn("The trash is empty", self.run_line(child, "trash"))
        self.assertNotIn("Bob", self.run_line(child, "history"))
        self.assertEqual(self.quit(child), 0)
