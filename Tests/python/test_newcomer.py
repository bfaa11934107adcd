"""What a newcomer meets first (issue 28), end to end: typos, birthdays, `query` for scripts,
duplicates across country codes and the rest, through the line session and subcommands."""
import os
import subprocess

from rpc_client import TIMEOUT, binary, isolated_env


def run(tmp_path, args, stdin=""):
    return subprocess.run([binary(), *args], input=stdin, capture_output=True, text=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT)


def new_book(tmp_path, cards=""):
    path = str(tmp_path / "book.sqlite")
    imported = run(tmp_path, ["import", "--create", "--db", path, "-"], cards)
    assert imported.returncode == 0, imported.stderr
    return path


def test_a_typo_in_a_line_session_is_answered_with_the_nearest_command(tmp_path):
    path = new_book(tmp_path)
    result = run(tmp_path, ["--db", path], "serach lee\nlist\n")
    assert "error: unknown command 'serach'; did you mean search? (help lists them all)" in result.stderr
    assert "here you can use" not in result.stderr  # not every command again
    assert "No contacts yet" in result.stdout  # the session went on to list
    assert result.returncode == 1  # as for any failed command in a script


def test_a_word_near_no_command_still_lists_them(tmp_path):
    path = new_book(tmp_path)
    result = run(tmp_path, ["--db", path], "frobnicate\n")
    assert "unknown command 'frobnicate'; here you can use: list," in result.stderr
    assert result.returncode == 1


NO_YEAR = "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:feb\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nBDAY:--0203\r\nEND:VCARD\r\n"


def test_a_birthday_without_a_year_is_shown_with_the_months_name_and_json_keeps_iso(tmp_path):
    import json
    path = new_book(tmp_path, NO_YEAR)
    text = run(tmp_path, ["show", "--db", path, "ann lee"])
    assert text.returncode == 0, text.stderr
    assert "3 Feb" in text.stdout
    assert "02-03" not in text.stdout
    session = run(tmp_path, ["--db", path], "show 1\n")
    assert "3 Feb" in session.stdout and "02-03" not in session.stdout
    shown = run(tmp_path, ["show", "--db", path, "--json", "ann lee"])
    assert shown.returncode == 0, shown.stderr
    record = json.loads(shown.stdout)["displayed"][0]["value"]["contact"]
    assert record["birthday"] == {"month": 2, "day": 3}  # for programs, the record's numbers


TWO_ADDRESSES = ("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:q1\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\n"
                 "EMAIL;TYPE=work:ann@example.org\r\nEMAIL;TYPE=home:ann@home.example\r\nEND:VCARD\r\n")


def test_query_keeps_mutts_format_by_default(tmp_path):
    path = new_book(tmp_path, TWO_ADDRESSES)
    mutt = run(tmp_path, ["query", "--db", path, "ann"])
    assert mutt.returncode == 0, mutt.stderr
    assert mutt.stdout.splitlines()[0] == "contactsbook: 2 addresses"
    none = run(tmp_path, ["query", "--db", path, "zed"])
    assert (none.returncode, none.stdout) == (1, "No matches\n")


def test_query_plain_and_aerc_print_only_address_lines(tmp_path):
    path = new_book(tmp_path, TWO_ADDRESSES)
    # written both ways: the subcommand first (the fast parse) and after a global option
    for args in (["query", "--format", "plain", "--db", path, "ann"], ["--db", path, "query", "--format", "plain", "ann"]):
        plain = run(tmp_path, args)
        assert plain.returncode == 0, plain.stderr
        assert sorted(plain.stdout.splitlines()) == ["ann@example.org\tAnn Lee\twork", "ann@home.example\tAnn Lee\thome"]
    aerc = run(tmp_path, ["query", "--db", path, "--format", "aerc", "ann"])
    assert aerc.returncode == 0, aerc.stderr
    assert sorted(aerc.stdout.splitlines()) == ["ann@example.org\tAnn Lee", "ann@home.example\tAnn Lee"]
    for format in ("plain", "aerc"):
        none = run(tmp_path, ["query", "--db", path, "--format", format, "zed"])
        assert (none.returncode, none.stdout, none.stderr) == (1, "", "")
    bad = run(tmp_path, ["query", "--db", path, "--format", "pine", "ann"])
    assert bad.returncode == 64 and "format" in bad.stderr and bad.stdout == ""


def test_duplicates_pair_a_phone_with_and_without_its_country_code_in_a_book_without_a_country(tmp_path):
    cards = ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob Stone\r\nN:Stone;Bob;;;\r\nTEL;TYPE=CELL:(555) 000-1111\r\nEND:VCARD\r\n"
             "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Robert Stone\r\nN:Stone;Robert;;;\r\nTEL;TYPE=CELL:+1 555 000 1111\r\nEND:VCARD\r\n")
    path = new_book(tmp_path, cards)
    result = run(tmp_path, ["duplicates", "--db", path])
    assert result.returncode == 0, result.stderr
    assert "Group 1: same phone +1 (555) 000-1111, once written without its country code" in result.stdout
    assert "merge 1 2" in result.stdout


def test_the_matched_column_shows_the_word_searched_with_context(tmp_path):
    card = ("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:cello\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\n"
            "NOTE:Plays cello in the orchestra on Sundays and teaches the young ones\r\nEND:VCARD\r\n")
    path = new_book(tmp_path, card)
    result = run(tmp_path, ["--db", path], "search orchestra\n")
    assert result.returncode == 0, result.stderr
    assert "note: …in the orchestra on Sundays…" in result.stdout
    assert "orch…" not in result.stdout


def bash_completions(tmp_path, script, words):
    """What bash offers for the last of `words`, in tmp_path, with the generated script."""
    line = " ".join(words)
    program = (f'source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMP_LINE="{line}"; '
               f'COMP_POINT=${{#COMP_LINE}}; _contactsbook contactsbook {words[-1]} {words[-2]}; '
               'printf "%s\\n" "${COMPREPLY[@]}"')
    env = {**isolated_env(tmp_path), "PATH": os.path.dirname(binary()) + ":/usr/bin:/bin"}
    result = subprocess.run(["bash", "--norc", "-c", program], capture_output=True, text=True, cwd=tmp_path,
                            env=env, timeout=TIMEOUT)
    return sorted(line for line in result.stdout.splitlines() if line)


def test_the_shell_completion_script_completes_file_names_for_import_and_db(tmp_path):
    script = tmp_path / "contactsbook.bash"
    generated = run(tmp_path, ["--generate-completion-script", "bash"])
    assert generated.returncode == 0, generated.stderr
    script.write_text(generated.stdout)
    (tmp_path / "data.vcf").write_text("")
    (tmp_path / "dairy.csv").write_text("")
    assert bash_completions(tmp_path, script, ["contactsbook", "import", "da"]) == ["dairy.csv", "data.vcf"]
    assert bash_completions(tmp_path, script, ["contactsbook", "--db", "da"]) == ["dairy.csv", "data.vcf"]
    zsh = run(tmp_path, ["--generate-completion-script", "zsh"]).stdout
    assert ":path:_files" in zsh and ":file:_files" in zsh


def test_the_form_sets_an_item_by_its_number(tmp_path):
    path = new_book(tmp_path)
    script = ("add\ngiven Ann\nfamily Lee\nphone mobile +1 555 000 1111\nemail work ann@old.example\n"
              "address home 1 Elm Row; Springfield\nsave\n"
              "edit 1\nphone 1 +44 20 7946 0000\nemail 1 ann@new.example\naddress 1 2 High St; Leeds\nsave\n")
    result = run(tmp_path, ["--db", path], script)
    assert result.returncode == 0, result.stderr
    assert "phone 1 (mobile): +44 20 7946 0000 (was +1 (555) 000-1111)" in result.stdout
    shown = run(tmp_path, ["show", "--db", path, "1"]).stdout
    assert "+44 20 7946 0000" in shown and "555" not in shown
    assert "ann@new.example" in shown and "old.example" not in shown
    assert "2 High St, Leeds" in shown and "Elm Row" not in shown


def test_session_commands_are_subcommands_with_the_same_words(tmp_path):
    import json
    path = new_book(tmp_path)
    added = run(tmp_path, ["add", "--db", path, "--given", "Ann", "--family", "Lee", "--email", "work ann@example.org",
                           "--phone", "mobile +44 20 7946 0000", "--tag", "friends"])
    assert added.returncode == 0, added.stderr
    assert "Added Ann Lee as #1" in added.stdout
    edited = run(tmp_path, ["edit", "--db", path, "ann", "lee", "--title", "Chair", "--phone", "1 +1 555 000 1111"])
    assert edited.returncode == 0, edited.stderr
    shown = run(tmp_path, ["show", "--db", path, "1"]).stdout
    assert "Chair" in shown and "+1 (555) 000-1111" in shown and "7946" not in shown
    # a bad field: nothing saved, the form's error, status 1
    bad = run(tmp_path, ["add", "--db", path, "--given", "Bo", "--email", "bo@"])
    assert bad.returncode == 1 and "not saved" in bad.stderr
    # export to a file and to stdout, refusing to overwrite without --overwrite
    target = tmp_path / "book.vcf"
    assert run(tmp_path, ["export", "--db", path, str(target)]).returncode == 0
    assert "FN:Ann Lee" in target.read_text()
    again = run(tmp_path, ["export", "--db", path, str(target)])
    assert again.returncode == 1 and again.stderr
    assert run(tmp_path, ["export", "--db", path, str(target), "--overwrite"]).returncode == 0
    printed = run(tmp_path, ["export", "--db", path, "-", "--format", "vcard3"])
    assert printed.returncode == 0 and "VERSION:3.0" in printed.stdout
    # delete by part of a name needs --yes; trash, history and undo bring it back
    refused = run(tmp_path, ["delete", "--db", path, "ann"])
    assert refused.returncode == 1 and "yes" in refused.stderr
    assert run(tmp_path, ["delete", "--db", path, "ann", "--yes"]).returncode == 0
    trash = run(tmp_path, ["trash", "--db", path, "--json"])
    assert trash.returncode == 0 and "Ann Lee" in trash.stdout
    json.loads(trash.stdout)
    history = run(tmp_path, ["history", "--db", path])
    assert history.returncode == 0 and "Ann Lee" in history.stdout
    undone = run(tmp_path, ["undo", "--db", path])
    assert undone.returncode == 0, undone.stderr
    assert "Ann Lee" in run(tmp_path, ["list", "--db", path]).stdout
    # no book: status 2, none made
    missing = run(tmp_path, ["undo", "--db", str(tmp_path / "none.sqlite")])
    assert missing.returncode == 2 and not (tmp_path / "none.sqlite").exists()


def test_the_shell_completion_script_completes_contact_names_for_show(tmp_path):
    script = tmp_path / "contactsbook.bash"
    script.write_text(run(tmp_path, ["--generate-completion-script", "bash"]).stdout)
    path = new_book(tmp_path)
    assert run(tmp_path, ["--db", path], "add\ngiven Ann\nfamily Lee\nsave\nadd\ngiven Anna\nfamily Key\nsave\n"
                                         "add\ngiven Bob\nfamily Stone\nsave\n").returncode == 0
    # a name of several words stays one candidate
    assert bash_completions(tmp_path, script, ["contactsbook", "show", "--db", path, "An"]) == ["Ann Lee", "Anna Key"]
    assert bash_completions(tmp_path, script, ["contactsbook", "show", "--db", path, "Bo"]) == ["Bob Stone"]
    # no book: nothing offered, no error, none made
    missing = str(tmp_path / "none.sqlite")
    assert bash_completions(tmp_path, script, ["contactsbook", "show", "--db", missing, "An"]) == []
    assert not os.path.exists(missing)
