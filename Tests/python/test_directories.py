"""The organisation's directories (issue 31), against a real OpenLDAP server (Debian's slapd) on
127.0.0.1 with a generated directory of 10,000 people with Unicode names (made and served once per
session, `conftest.people_directory`; a test that stops its server has its own copy):
anonymous and bound searches, a wrong password, LDAPS and StartTLS with a self-signed
certificate (refused by default, accepted with --ca-file), a stopped server, a server that never
answers (the time limit holds, the book's answer stands and its lines go out first), a size
limit, a directory's own --filter, hostile values, and `show` and `copy` of a directory's entry."""
import base64
import json
import os
import shutil
import subprocess

import pytest

import ldap_server
from ldap_server import PEOPLE, READER_DN, READER_PASSWORD, LDAPServer, SilentProxy

BIN = os.environ["CONTACTSBOOK_BIN"]

pytestmark = pytest.mark.skipif(ldap_server.missing() is not None, reason=str(ldap_server.missing()))


@pytest.fixture
def server(ldap_directory):
    """The session's directory (`ldap_server.people`: person p{i} is GIVEN[i % 20] FAMILY[i // 20 % 20],
    the family name numbered from the second round of 400 on: 500 Zoës, 25 Zoë Lees)."""
    return ldap_directory


@pytest.fixture
def own_server(people_directory, tmp_path):
    """A server of the test's own, on a copy of the session's directory, for a test that stops it."""
    s = LDAPServer(tmp_path, directory=people_directory)
    yield s
    s.stop()


def run(tmp_path, *args, commands=(), env=()):
    return subprocess.run(
        [BIN, *args, "--db", str(tmp_path / "book.sqlite")],
        input="".join(c + "\n" for c in commands), capture_output=True, text=True, timeout=60,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", **dict(env)})


def book(tmp_path):
    """A book with one person of its own, whose name also matches the directory's."""
    result = subprocess.run([BIN, "--db", str(tmp_path / "book.sqlite"), "--create"], capture_output=True, text=True,
                            input="add\ngiven Zoë\nfamily Local\nemail work zoe.local@example.org\nsave\n", timeout=60,
                            env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr


def add(tmp_path, name, url, *options):
    result = run(tmp_path, "directory", "add", name, url, *options)
    assert result.returncode == 0, result.stderr
    return result


def test_anonymous_query_lists_the_book_first_then_the_directory(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    result = run(tmp_path, "query", "zoë", "l")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # mutt's first line, the book's address, then the directory's, each labelled with its source.
    assert lines[1] == "zoe.local@example.org\tZoë Local\twork"
    directory = lines[2:]
    assert directory and all(line.endswith("\tcorp directory · Example Corp") for line in directory)
    assert "p2@corp.example.org\tZoë Lee\tcorp directory · Example Corp" in directory
    # Every generated Zoë Lee (one per round: Lee, Lee1 ... Lee24) of the 10,000, found by the server's filter.
    assert sorted(directory) == sorted(f"p{2 + 400 * r}@corp.example.org\tZoë Lee{r or ''}\tcorp directory · Example Corp"
                                       for r in range(25))
    assert lines[0] == "contactsbook: 26 addresses"
    assert result.stderr == ""
    assert sorted(p.name for p in tmp_path.glob("book.sqlite*")) == ["book.sqlite"]


def test_words_are_prefixes_of_any_attribute_and_all_must_match(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    # Given name, family name and address: three attributes, one word each.
    result = run(tmp_path, "query", "--format", "aerc", "zo", "ngu", "p102@")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "p102@corp.example.org\tZoë Nguyễn\n"
    # A prefix of a Unicode family name, in another case: the server folds it (25 rounds of Chloé Ødegaard).
    result = run(tmp_path, "query", "--format", "aerc", "chloé", "ø")
    assert sorted(result.stdout.splitlines()) == sorted(f"p{86 + 400 * r}@corp.example.org\tChloé Ødegaard{r or ''}"
                                                        for r in range(25))
    # A word that is filter syntax is a value: nothing matches, no error.
    result = run(tmp_path, "query", "--format", "aerc", "*)(uid=*")
    assert result.returncode == 1, result.stdout
    assert result.stdout == "" and result.stderr == ""


def test_bound_access_and_a_wrong_password(tmp_path, server):
    book(tmp_path)
    # The password in a file, as `pass` or a keyring would keep it: the command names the file.
    (tmp_path / "password").write_text(READER_PASSWORD + "\n")
    add(tmp_path, "corp", server.url, "--plaintext", "--bind-dn", READER_DN, "--password-command",
        f"cat {tmp_path / 'password'}")
    tested = run(tmp_path, "directory", "test", "corp")
    assert tested.returncode == 0, tested.stderr
    assert f"bound as {READER_DN}" in tested.stdout
    add(tmp_path, "bad", server.url, "--plaintext", "--bind-dn", READER_DN, "--password-command", "echo not-it")
    tested = run(tmp_path, "directory", "test", "bad")
    assert tested.returncode == 1
    assert tested.stderr == f"error: directory bad: the server refused the bind as {READER_DN}: Invalid credentials\n"
    # The password is nowhere: not in the book, not in what was printed.
    assert READER_PASSWORD.encode() not in (tmp_path / "book.sqlite").read_bytes()
    listed = run(tmp_path, "directory", "list")
    assert READER_PASSWORD not in listed.stdout and "not-it" not in listed.stdout
    # The good directory answers; the bad one says so once, and the book's answer stands.
    result = run(tmp_path, "query", "--format", "plain", "zoë", "l")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "zoe.local@example.org\tZoë Local\twork"
    assert "p2@corp.example.org\tZoë Lee\tcorp directory · Example Corp" in result.stdout
    assert result.stderr == (f"contactsbook: directory bad: the server refused the bind as {READER_DN}: "
                             "Invalid credentials\n")


def test_a_bind_needs_a_password_command_and_none_is_stored(tmp_path, server):
    book(tmp_path)
    result = run(tmp_path, "directory", "add", "corp", server.url, "--bind-dn", READER_DN)
    assert result.returncode == 1
    assert "needs --password-command" in result.stderr


@pytest.mark.parametrize("kind", ["ldaps", "starttls"])
def test_a_self_signed_certificate_is_refused_by_default_and_accepted_with_its_ca_file(tmp_path, server, kind):
    book(tmp_path)
    url = server.ldaps_url if kind == "ldaps" else server.starttls_url
    add(tmp_path, "strict", url)
    add(tmp_path, "trusted", url, "--ca-file", str(server.cert))
    refused = run(tmp_path, "directory", "test", "strict")
    assert refused.returncode == 1
    assert refused.stderr.startswith("error: directory strict: the TLS handshake failed: the server's certificate is not trusted")
    accepted = run(tmp_path, "directory", "test", "trusted")
    assert accepted.returncode == 0, accepted.stderr
    assert ("LDAPS" if kind == "ldaps" else "StartTLS") in accepted.stdout
    result = run(tmp_path, "query", "--format", "aerc", "zoë", "p2@")
    assert result.stdout == "p2@corp.example.org\tZoë Lee\n"
    assert result.stderr.startswith("contactsbook: directory strict: the TLS handshake failed")


def test_a_stopped_server_costs_a_notice_not_the_answer(tmp_path, own_server):
    book(tmp_path)
    add(tmp_path, "corp", own_server.url, "--plaintext")
    own_server.stop()
    result = run(tmp_path, "query", "zoë")
    assert result.returncode == 0
    assert result.stdout == "contactsbook: 1 address\nzoe.local@example.org\tZoë Local\twork\n"
    assert result.stderr == "contactsbook: directory corp: cannot search: Can't contact LDAP server\n"
    tested = run(tmp_path, "directory", "test", "corp")
    assert tested.returncode == 1 and "Can't contact LDAP server" in tested.stderr


def test_a_directory_that_never_answers_costs_its_time_limit_once(tmp_path):
    book(tmp_path)
    proxy = SilentProxy()
    try:
        add(tmp_path, "slow", f"ldap://127.0.0.1:{proxy.port}/{PEOPLE}", "--plaintext", "--time-limit", "0.5")
        # The proxy never answers: without the limit, these would wait until the test's timeout.
        result = run(tmp_path, "query", "zoë")
        assert result.returncode == 0
        assert result.stdout == "contactsbook: 1 address\nzoe.local@example.org\tZoë Local\twork\n"
        assert result.stderr == "contactsbook: directory slow: no complete answer within 0.5 s\n"
        searched = run(tmp_path, "search", "zoë")
        assert searched.returncode == 0
        assert "Zoë Local" in searched.stdout
        assert searched.stdout.count("directory slow: no complete answer within 0.5 s") == 1
    finally:
        proxy.close()


def test_the_books_lines_go_out_at_once_while_a_slow_directory_is_asked(tmp_path):
    # Without mutt's counting first line, `query` writes the book's lines before the directories
    # answer: the proxy never answers and the limit is 30 s, so the line read here came first.
    book(tmp_path)
    proxy = SilentProxy()
    process = None
    try:
        add(tmp_path, "slow", f"ldap://127.0.0.1:{proxy.port}/{PEOPLE}", "--plaintext", "--time-limit", "30")
        for format_, line in [("plain", "zoe.local@example.org\tZoë Local\twork\n"),
                              ("aerc", "zoe.local@example.org\tZoë Local\n")]:
            process = subprocess.Popen([BIN, "query", "--format", format_, "--db", str(tmp_path / "book.sqlite"), "zoë"],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                       env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
            assert process.stdout.readline() == line
            assert process.poll() is None, "still asking the directory"
            # The book was closed before its lines went out: nothing of SQLite's is left beside it.
            assert sorted(p.name for p in tmp_path.glob("book.sqlite*")) == ["book.sqlite"]
            process.kill()
            process.communicate(timeout=30)
            process = None
    finally:
        if process:
            process.kill()
            process.communicate(timeout=30)
        proxy.close()


def test_the_directorys_own_filter_says_who_is_a_person(tmp_path, server):
    book(tmp_path)
    # Of the 500 Zoës, the filter keeps those whose uid is p2 or p402.
    add(tmp_path, "corp", server.url, "--plaintext", "--filter", "(&(objectClass=inetOrgPerson)(|(uid=p2)(uid=p402)))")
    listed = run(tmp_path, "directory", "list")
    assert "filter (&(objectClass=inetOrgPerson)(|(uid=p2)(uid=p402)))" in listed.stdout
    result = run(tmp_path, "query", "--format", "aerc", "zoë")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("zoe.local@example.org\tZoë Local\n" "p2@corp.example.org\tZoë Lee\n"
                             "p402@corp.example.org\tZoë Lee1\n")
    assert result.stderr == ""
    # `directory test` looks for one person through the same filter.
    tested = run(tmp_path, "directory", "test", "corp")
    assert tested.returncode == 0, tested.stderr
    assert "e.g. uid=p2," in tested.stdout or "e.g. uid=p402," in tested.stdout


def test_the_size_limit_says_more_exist(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext", "--size-limit", "5")
    result = run(tmp_path, "query", "--format", "plain", "engineer")
    assert result.returncode == 0
    assert len(result.stdout.splitlines()) == 5
    assert result.stderr == ("contactsbook: directory corp: more entries match than the 5 shown; type more of the name\n")
    # The default limit, 50, on the 500 Zoës of the directory: the book's one, then 50.
    add(tmp_path, "big", server.url, "--plaintext")
    run(tmp_path, "directory", "remove", "corp")
    result = run(tmp_path, "query", "--format", "plain", "zoë")
    lines = result.stdout.splitlines()
    assert lines[0] == "zoe.local@example.org\tZoë Local\twork"
    assert len(lines) == 51 and all(line.startswith("p") and "\tZoë " in line for line in lines[1:])
    assert result.stderr == ("contactsbook: directory big: more entries match than the 50 shown; type more of the name\n")


def test_search_labels_rows_and_show_and_copy_take_them(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    result = run(tmp_path, "search", "zoë", "lee", "p2@", "--json")
    assert result.returncode == 0, result.stderr
    displayed = json.loads(result.stdout)["displayed"]
    assert [d["kind"] for d in displayed] == ["contactList", "directoryResults"]
    rows = displayed[1]["value"]["rows"]
    assert rows == [{"reference": "corp:1", "directory": "corp", "dn": f"uid=p2,{PEOPLE}", "name": "Zoë Lee",
                     "organization": "Example Corp", "email": "p2@corp.example.org", "phone": "+1 (555) 000-0002"}]
    # In a session: search, show the result, copy it; then the book has it, and undo takes it back.
    session = run(tmp_path, commands=["search zoë lee p2@", "show corp:1", "copy corp:1", "search p2@corp", "undo",
                                      "search p2@corp"])
    assert session.returncode == 0, session.stderr
    out = session.stdout
    assert "corp:1     Zoë Lee  Example Corp  p2@corp.example.org  +1 (555) 000-0002" in out
    assert "  Email (work)  p2@corp.example.org\n  Directory     corp\n  DN            uid=p2,ou=people,dc=example,dc=org\n" in out
    copied, undone = out.split("Copied Zoë Lee from directory corp as #2\n")[1].split("Undid: copied Zoë Lee from directory corp\n")
    # After the copy the book finds it; after undo only the directory does.
    assert "2  Zoë Lee  Example Corp  p2@corp.example.org" in copied
    assert 'No contacts match "p2@corp"' in undone and "corp:1     Zoë Lee" in undone


def test_copy_of_a_result_into_a_named_book_is_refused_and_copies_nothing(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    # `copy` also copies contacts into a book; a directory's result goes to the default book only.
    session = run(tmp_path, commands=["search zoë lee p2@", "copy corp:1 local", "history"])
    assert session.returncode == 1
    assert "a directory's result is copied into the default book, not 'local': copy corp:1, then move it" in session.stderr
    assert "Copied" not in session.stdout and "copied Zoë Lee" not in session.stdout


def test_copy_by_dn_is_journalled_and_remembers_its_source(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    copied = run(tmp_path, "directory", "copy", "corp", f"uid=p2,{PEOPLE}")
    assert copied.returncode == 0, copied.stderr
    assert copied.stdout == "Copied Zoë Lee from directory corp as #2\n"
    history = run(tmp_path, "history")
    assert "copied Zoë Lee from directory corp" in history.stdout
    shown = run(tmp_path, "show", "2", "--json")
    record = json.loads(shown.stdout)
    text = json.dumps(record, ensure_ascii=False)
    assert "p2@corp.example.org" in text and "+1 555 0000002" in text
    card = subprocess.run([BIN, "export", "--db", str(tmp_path / "book.sqlite"), "--format", "vcard", "-"],
                          capture_output=True, text=True, timeout=60)
    assert card.returncode == 0, card.stderr
    lines = card.stdout.splitlines()
    assert f"SOURCE:ldap://127.0.0.1:{server.port}/uid=p2,ou=people,dc=example,dc=org" in lines
    assert "X-CONTACTSBOOK-DIRECTORY:corp" in lines
    assert "REV:19700101T000000Z" not in lines
    undone = run(tmp_path, "undo")
    assert undone.returncode == 0, undone.stderr
    assert run(tmp_path, "query", "--format", "plain", "p2@corp").stdout.count("\tcorp directory") == 1


def ldapsearch_entries(server, filter, limit):
    """The entries `ldapsearch` gets for `filter`, in the order the server sent them: dicts of lists."""
    result = subprocess.run(["ldapsearch", "-x", "-LLL", "-o", "ldif-wrap=no", "-H", server.url.rsplit("/", 1)[0],
                             "-b", PEOPLE, "-z", str(limit), filter, "cn", "displayName", "mail", "o"],
                            capture_output=True, timeout=60)
    assert result.returncode in (0, 4), result.stderr
    entries = []
    for block in result.stdout.decode().strip().split("\n\n"):
        entry = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            if name.endswith(":"):  # base64 (RFC 2849)
                name, value = name[:-1], base64.b64decode(value).decode()
            entry.setdefault(name, []).append(value)
        entries.append(entry)
    return entries


def test_query_lines_are_the_servers_entries_in_the_order_it_sent_them(tmp_path, server):
    # Each entry becomes its lines as it arrives (on the thread asking the directory): what the
    # mail client gets is the server's entries, in the server's order, as ldapsearch sees them.
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    result = run(tmp_path, "query", "--format", "plain", "zoë")
    lines = result.stdout.splitlines()
    assert lines[0] == "zoe.local@example.org\tZoë Local\twork"
    filter = "(&(|(objectClass=inetOrgPerson)(objectClass=person))(|" + "".join(
        f"({a}=zoë*)" for a in ("cn", "displayName", "givenName", "sn", "mail", "telephoneNumber", "mobile", "o", "ou",
                                "title")) + "))"
    expected = [f"{mail}\t{(e.get('displayName') or e['cn'])[0]}\tcorp directory · {e['o'][0]}"
                for e in ldapsearch_entries(server, filter, 50) for mail in e["mail"]]
    assert len(expected) == 50 and lines[1:] == expected
    assert result.stderr == "contactsbook: directory corp: more entries match than the 50 shown; type more of the name\n"


def test_hostile_values_are_shown_safely(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    result = run(tmp_path, "query", "--format", "plain", "xavier")
    assert result.returncode == 0
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    (line,) = result.stdout.splitlines()
    assert line.startswith("xavier@corp.example.org\tXavier")
    shown = run(tmp_path, "directory", "show", "corp", f"uid=hostile,{PEOPLE}")
    assert shown.returncode == 0, shown.stderr
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout and "\u202e" not in shown.stdout
    assert "Photo" in shown.stdout and "JPEG image" in shown.stdout
    # The 200,000-character description is cut.
    assert max(len(line) for line in shown.stdout.splitlines()) < 2_000
    as_json = json.loads(run(tmp_path, "directory", "show", "corp", f"uid=hostile,{PEOPLE}", "--json").stdout)
    assert as_json["photo"].startswith("data:image/jpeg;base64,/9j/")
    searched = run(tmp_path, "search", "xavier")
    assert "\x1b" not in searched.stdout and "\x07" not in searched.stdout


def test_directory_names_and_addresses_are_checked(tmp_path, server):
    book(tmp_path)
    for args, error in [
        (["two words", server.url], "a directory name is one word"),
        (["corp", "http://example.org/dc=x"], "the address is ldap://HOST[:PORT]/BASE-DN"),
        (["corp", "ldap://example.org"], "the address ends with the base DN"),
        (["corp", "ldap://example.org:99999/dc=x"], "is not a port"),
        (["corp", server.url, "--filter", "(&(objectClass=person)"], "parentheses do not match"),
        (["corp", server.ldaps_url, "--plaintext"], "--plaintext is for ldap://"),
        (["corp", server.url, "--ca-file", "/nonexistent.pem"], "cannot read the CA file"),
    ]:
        result = run(tmp_path, "directory", "add", *args)
        assert result.returncode == 1, args
        assert error in result.stderr, (args, result.stderr)
    add(tmp_path, "corp", server.url, "--plaintext")
    again = run(tmp_path, "directory", "add", "corp", server.url, "--plaintext")
    assert again.returncode == 1 and "already a directory named corp" in again.stderr
    removed = run(tmp_path, "directory", "remove", "corp")
    assert removed.returncode == 0 and removed.stdout == "Removed directory corp; nothing in the book changed.\n"
    assert run(tmp_path, "directory", "remove", "corp").stderr == "error: there is no directory named corp\n"
    assert run(tmp_path, "directory", "list").stdout.startswith("No directories.")


def test_without_libldap_the_error_names_the_package(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    env = {"CONTACTSBOOK_TEST_LIBLDAP": "libldap-missing.so.9"}
    tested = run(tmp_path, "directory", "test", "corp", env=env)
    assert tested.returncode == 1
    assert "directories need OpenLDAP's client library" in tested.stderr and "libldap2 package" in tested.stderr
    result = run(tmp_path, "query", "zoë", env=env)
    assert result.returncode == 0
    assert result.stdout == "contactsbook: 1 address\nzoe.local@example.org\tZoë Local\twork\n"
    assert "install the libldap2 package" in result.stderr


def test_libldap_is_loaded_only_when_a_directory_is_asked(tmp_path, server):
    book(tmp_path)

    def opened(*args):
        result = subprocess.run([BIN, *args, "--db", str(tmp_path / "book.sqlite")], capture_output=True, text=True,
                                timeout=60, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LD_DEBUG": "files"})
        assert "file=" in result.stderr, "LD_DEBUG=files reported nothing"
        return "file=libldap" in result.stderr

    assert not opened("query", "zoë")
    assert not opened("search", "zoë")
    add(tmp_path, "corp", server.url, "--plaintext")
    assert opened("query", "zoë")
    assert not opened("list")


def header_mark(tmp_path):
    """Bit 0 of user_version in the book file's SQLite header, as `query` reads it before opening the book."""
    header = (tmp_path / "book.sqlite").read_bytes()[:100]
    assert header.startswith(b"SQLite format 3\0")
    return int.from_bytes(header[60:64], "big") & 1


def set_user_version(tmp_path, value):
    import sqlite3
    with sqlite3.connect(tmp_path / "book.sqlite") as db:
        db.execute(f"PRAGMA user_version = {value}")
    db.close()


def test_directory_add_and_remove_keep_the_books_header_mark_in_step(tmp_path, server):
    book(tmp_path)
    assert header_mark(tmp_path) == 0
    add(tmp_path, "corp", server.url, "--plaintext")
    assert header_mark(tmp_path) == 1
    add(tmp_path, "lab", server.url, "--plaintext")
    assert run(tmp_path, "directory", "remove", "corp").returncode == 0
    assert header_mark(tmp_path) == 1
    assert run(tmp_path, "directory", "remove", "lab").returncode == 0
    assert header_mark(tmp_path) == 0


def test_query_asks_the_sources_the_book_lists_whatever_its_header_mark_says(tmp_path, server):
    # The mark only lets `query` load libldap before the book is open; what is asked is the book's
    # own list, so a mark another program left behind (or one not yet written back from the WAL)
    # changes no byte of the answer.
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    marked = run(tmp_path, "query", "zoë", "lee")
    assert marked.returncode == 0 and "p2@corp.example.org" in marked.stdout, marked.stderr
    set_user_version(tmp_path, 0)
    unmarked = run(tmp_path, "query", "zoë", "lee")
    assert (unmarked.stdout, unmarked.stderr, unmarked.returncode) == (marked.stdout, marked.stderr, marked.returncode)
    assert run(tmp_path, "directory", "remove", "corp").returncode == 0
    alone = run(tmp_path, "query", "zoë", "lee")
    assert alone.returncode == 1 and "corp" not in alone.stdout + alone.stderr, alone
    set_user_version(tmp_path, 1)
    stale = run(tmp_path, "query", "zoë", "lee")
    assert (stale.stdout, stale.stderr, stale.returncode) == (alone.stdout, alone.stderr, alone.returncode)
    assert sorted(p.name for p in tmp_path.glob("book.sqlite*")) == ["book.sqlite"]


def test_query_answers_alike_however_its_marked_book_is_named_and_a_bad_line_exits_cleanly(tmp_path, server):
    # For `query` with a marked book, libldap starts loading on a thread of its own as soon as
    # the book's header is read: the answer is the same whichever way the book is named, and a
    # line that fails to parse exits with its usage error, not a crash.
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    path = tmp_path / "book.sqlite"
    default = tmp_path / ".local" / "share" / "contactsbook"
    default.mkdir(parents=True)
    shutil.copyfile(path, default / "contacts.sqlite")
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def query(*args):
        r = subprocess.run([BIN, "query", *args], capture_output=True, text=True, timeout=60, env=env)
        return r.stdout, r.stderr, r.returncode

    by_option = query("--db", str(path), "zoë", "lee")
    assert by_option[2] == 0 and "p2@corp.example.org\tZoë Lee\tcorp directory · Example Corp" in by_option[0]
    assert query(f"--db={path}", "zoë", "lee") == by_option
    assert query("zoë", "lee") == by_option
    assert query("--db", "~/book.sqlite", "zoë", "lee") == by_option
    stdout, stderr, status = query("--db", str(path), "--format", "bogus", "zoë")
    assert status == 64 and stdout == "" and "bogus" in stderr, (status, stderr)


def test_a_marked_book_that_cannot_be_opened_is_an_error_not_a_crash(tmp_path, server):
    # The header says "directories", so libldap starts loading before SQLite finds the book broken:
    # the error is said and the status is 2, as for any broken book, with the loader let finish.
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    path = tmp_path / "book.sqlite"
    data = bytearray(path.read_bytes())
    data[100:400] = b"\xff" * 300  # page 1's b-tree header and cells: the schema cannot be read
    path.write_bytes(bytes(data))
    assert header_mark(tmp_path) == 1
    result = run(tmp_path, "query", "zoë")
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert result.stderr.startswith(f"error: cannot search {path}:"), result.stderr
    assert result.stdout == ""


def test_sasl_plugins_are_not_loaded_for_a_simple_or_anonymous_bind(tmp_path, server):
    # libldap starts Cyrus SASL, which would load every mechanism plugin it finds (libcrypto and
    # Berkeley DB among them): a third of an ldapsearch's CPU, for binds that never use SASL.
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    result = subprocess.run([BIN, "query", "--db", str(tmp_path / "book.sqlite"), "zoë", "p2@"], capture_output=True,
                            text=True, timeout=60, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LD_DEBUG": "files"})
    assert "p2@corp.example.org" in result.stdout, result.stderr[-2000:]
    loaded = [line for line in result.stderr.splitlines() if "file=" in line and "dynamically loaded" in line]
    assert any("libldap" in line for line in loaded), loaded
    assert not [line for line in loaded if "/sasl2/" in line or "libcrypto" in line or "libdb-" in line], loaded


def frames(tmp_path, args, messages, framing):
    from rpc_client import frame, isolated_env, parse_frames
    data = b"".join(frame(m, framing) for m in messages)
    result = subprocess.run([BIN, *args, "--db", str(tmp_path / "book.sqlite")], input=data, capture_output=True,
                            env=isolated_env(tmp_path), timeout=60)
    return parse_frames(result.stdout, framing), result.stderr.decode()


def test_lsp_completion_offers_the_book_then_the_directory_and_says_a_dead_one_once(tmp_path, server):
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext", "--size-limit", "20")
    add(tmp_path, "dead", "ldap://127.0.0.1:1/dc=example,dc=org", "--plaintext")
    uri = "file:///tmp/draft.eml"
    text = "To: zoë\nSubject: hi\n\nbody\n"
    complete = lambda id_: {"jsonrpc": "2.0", "id": id_, "method": "textDocument/completion",
                            "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 7}}}
    messages, stderr = frames(tmp_path, ["--lsp"], [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": uri, "languageId": "mail", "version": 1, "text": text}}},
        complete(2), complete(3),
        {"jsonrpc": "2.0", "id": 4, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"},
    ], "content-length")
    answers = {m["id"]: m for m in messages if "id" in m}
    labels = [item["label"] for item in answers[2]["result"]["items"]]
    assert labels[0] == "Zoë Local <zoe.local@example.org>"
    assert "Zoë Lee <p2@corp.example.org>" in labels[1:]
    assert len(labels) == 21  # the book's Zoë and 20 of the directory's 500
    details = {item["label"]: item.get("detail") for item in answers[2]["result"]["items"]}
    assert details["Zoë Lee <p2@corp.example.org>"] == "corp directory · Example Corp"
    # The second request has the same answer, and the dead directory was said once.
    assert [item["label"] for item in answers[3]["result"]["items"]] == labels
    assert stderr.count("directory dead: cannot search: Can't contact LDAP server") == 1


def test_mcp_search_returns_the_directory_after_the_book(tmp_path, server):
    import jsonschema
    book(tmp_path)
    add(tmp_path, "corp", server.url, "--plaintext")
    messages, _ = frames(tmp_path, ["--mcp"], [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search", "arguments": {"text": "zoë lee p2@"}}},
    ], "newline")
    answers = {m["id"]: m for m in messages if "id" in m}
    (tool,) = [t for t in answers[2]["result"]["tools"] if t["name"] == "search"]
    result = answers[3]["result"]
    assert not result.get("isError"), result
    structured = result["structuredContent"]
    jsonschema.validate(structured, tool["outputSchema"])
    assert structured["total"] == 0
    assert structured["directories"]["rows"][0]["reference"] == "corp:1"
    assert structured["directories"]["rows"][0]["email"] == "p2@corp.example.org"
    assert "1 person in the directories" in result["content"][0]["text"]
