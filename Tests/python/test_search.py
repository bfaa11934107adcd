"""Finding people end to end: inside words, word starts first, tags, notes and addresses, and
which field matched, in a line session and over JSON-RPC."""
import subprocess

from rpc_client import TIMEOUT, binary, isolated_env

CARDS = (
    "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:a\r\nN:Ñúñez;José;;;\r\nFN:José Ñúñez\r\nEND:VCARD\r\n"
    "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:b\r\nN:Nezumi;Kai;;;\r\nFN:Kai Nezumi\r\nEND:VCARD\r\n"
    "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:c\r\nN:Lee;Ann;;;\r\nFN:Ann Lee\r\nCATEGORIES:friends\r\n"
    "NOTE:Met at the Lisbon conference\r\nADR;TYPE=home:;;1 Elm Row;Springfield;;;\r\nEND:VCARD\r\n"
)


def book(tmp_path):
    path = str(tmp_path / "book.sqlite")
    imported = subprocess.run([binary(), "import", "--create", "--db", path, "-"], input=CARDS, capture_output=True,
                              text=True, env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert imported.returncode == 0, imported.stderr
    return path


def session(tmp_path, path, commands):
    result = subprocess.run([binary(), "--db", path], input="".join(c + "\n" for c in commands),
                            capture_output=True, text=True, env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_line_session_finds_inside_words_after_word_starts(tmp_path):
    out = session(tmp_path, book(tmp_path), ["search ñez"])
    # Nezumi starts with "nez"; Ñúñez holds it inside: Nezumi first, though Ñúñez sorts before it
    assert out.index("Kai Nezumi") < out.index("José Ñúñez")
    assert "2 contacts" in out
    assert "No contacts match" in session(tmp_path, book(tmp_path), ["search ez"])


def test_a_line_session_finds_tags_notes_and_addresses_and_says_what_matched(tmp_path):
    path = book(tmp_path)
    out = session(tmp_path, path, ["search friends"])
    assert "Ann Lee" in out and "Matched" in out and "tag: friends" in out
    assert "note: Met at the Lisbon conference" in session(tmp_path, path, ["search lisbon"])
    assert "address: 1 Elm Row, Springfield" in session(tmp_path, path, ["search springfield"])
    by_name = session(tmp_path, path, ["search lee"])
    assert "Ann Lee" in by_name and "Matched" not in by_name


def test_rpc_rows_carry_the_matched_field(spawn_rpc, tmp_path):
    rpc = spawn_rpc(framing="newline", db=book(tmp_path))
    _, response = rpc.request("contacts/search", {"text": "friends"})
    rows = response["result"]["displayed"][0]["value"]["rows"]
    assert [(row["name"], row.get("matched")) for row in rows] == [("Ann Lee", "tag: friends")]
    _, response = rpc.request("contacts/search", {"text": "lee"})
    assert "matched" not in response["result"]["displayed"][0]["value"]["rows"][0]
