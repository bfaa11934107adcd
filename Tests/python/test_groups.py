"""Groups end to end: the words in the line session and as subcommands (--json), a group card of
each convention imported as a group (never a person), exported back in the version asked, the
CSV's groups column, `query GROUP` for mutt, and --rpc's group methods."""
import csv
import io
import json
import os
import re
import subprocess

from rpc_client import TIMEOUT, binary, isolated_env

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "ContactsAppTests", "Fixtures", "groups")


def run(tmp_path, db, *args, script=None):
    return subprocess.run([binary(), "--db", db, *args], input=script, capture_output=True, text=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT)


def book(tmp_path):
    db = str(tmp_path / "book.sqlite")
    result = run(tmp_path, db, "--create", script="".join(
        f"add\ngiven {given}\nfamily {family}\nemail {given.lower()}@example.org\nsave\n"
        for given, family in [("Ann", "Lee"), ("Bob", "Stone"), ("Cy", "Young")]))
    assert result.returncode == 0, result.stderr
    return db


def test_group_words_in_a_line_session_and_undo(tmp_path):
    db = book(tmp_path)
    result = run(tmp_path, db, script='group new Book club\ngroup add book 1 "cy young"\nlist --group book\n'
                                      "list --ungrouped\nshow 1\nback\ngroups\nundo\ngroups\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Made group Book club" in out
    assert "Added Ann Lee, Cy Young to Book club (2 members)" in out
    assert "Page 1 of 1 · 2 contacts in group Book club · by last name" in out
    assert "Page 1 of 1 · 1 contact in no group · by last name" in out
    assert "  Groups        Book club" in out
    assert "Undid: added Ann Lee, Cy Young to group Book club" in out
    assert out.rstrip().endswith("Book club        0\n1 group")


def test_rename_remove_and_delete_in_a_line_session_each_undone(tmp_path):
    db = book(tmp_path)
    # Members by number, by name and by a search word ("young" names Cy alone)
    script = ("group new Family\ngroup add family 1 \"bob stone\" young\ngroup rename family Kin\n"
              "group remove kin stone\nlist --group kin\nlist --ungrouped\ngroups\n"
              "undo\nlist --group kin\nundo\ngroups\ngroup delete family\ngroups\nundo\ngroups\n")
    result = run(tmp_path, db, script=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Added Ann Lee, Bob Stone, Cy Young to Family (3 members)" in out
    assert "Renamed group Family to Kin" in out, out
    assert "Removed Bob Stone from Kin (2 members)" in out
    assert "Page 1 of 1 · 2 contacts in group Kin · by last name" in out
    assert "Page 1 of 1 · 1 contact in no group · by last name" in out
    assert "Undid: removed Bob Stone from group Kin" in out
    assert "Page 1 of 1 · 3 contacts in group Kin · by last name" in out
    assert "Undid: renamed group Family to Kin" in out
    assert "Deleted group Family" in out, out
    assert "Undid: deleted group Family" in out
    # The listings in order: Kin of 2, Family of 3 (both undone), none, Family again
    listed = re.findall(r"\n(Kin|Family) +(\d+)\n1 group|(No groups yet)", out)
    assert [m[0] + m[1] or m[2] for m in listed] == ["Kin2", "Family3", "No groups yet", "Family3"], listed
    assert out.rstrip().endswith("Family        3\n1 group"), out[-200:]


def test_subcommands_with_json_and_errors(tmp_path):
    db = book(tmp_path)
    assert run(tmp_path, db, "group", "new", "Family").returncode == 0
    added = run(tmp_path, db, "group", "add", "Family", "Bob Stone", "1")
    assert added.returncode == 0, added.stderr
    assert added.stdout == "Added Bob Stone, Ann Lee to Family (2 members)\n"
    groups = json.loads(run(tmp_path, db, "groups", "--json").stdout)
    listed = groups["displayed"][0]
    assert listed["kind"] == "contactGroups"
    assert [(g["name"], g["size"], g["inBook"], g["convention"]) for g in listed["value"]["groups"]] == [("Family", 2, 2, "vcard4")]
    members = json.loads(run(tmp_path, db, "list", "--group", "fam", "--json").stdout)["displayed"][0]["value"]
    assert [row["name"] for row in members["rows"]] == ["Ann Lee", "Bob Stone"]
    assert members["group"] == "Family"
    alone = run(tmp_path, db, "list", "--ungrouped")
    assert "Cy Young" in alone.stdout and "Ann Lee" not in alone.stdout
    shown = json.loads(run(tmp_path, db, "show", "ann", "--json").stdout)["displayed"][0]["value"]
    assert shown["contact"]["groups"] == ["Family"]
    unknown = run(tmp_path, db, "group", "add", "Nope", "1")
    assert unknown.returncode == 1
    assert 'no group is named "Nope"; groups lists them' in unknown.stderr
    both = run(tmp_path, db, "list", "--group", "Family", "--ungrouped")
    assert both.returncode == 1 and "not both" in both.stderr
    taken = run(tmp_path, db, "group", "new", "family")
    assert taken.returncode == 1 and 'a group named "Family" exists already' in taken.stderr
    assert run(tmp_path, db, "undo").returncode == 0
    assert json.loads(run(tmp_path, db, "groups", "--json").stdout)["displayed"][0]["value"]["groups"][0]["size"] == 0


def test_group_cards_of_both_conventions_import_as_groups_and_export_back(tmp_path):
    db = str(tmp_path / "book.sqlite")
    for name in ("fastmail-3.0.vcf", "kind-4.0.vcf"):
        result = run(tmp_path, db, "--create", "import", os.path.join(FIXTURES, name))
        assert result.returncode == 0, result.stderr
        assert "1 group (1 added, 0 updated)" in result.stdout
    listed = run(tmp_path, db, "list")
    # The groups are no people: three contacts, not five
    assert "3 contacts" in listed.stdout and "test group" not in listed.stdout and "Team" not in listed.stdout
    assert "No duplicates" in run(tmp_path, db, "duplicates").stdout
    groups = run(tmp_path, db, "groups").stdout
    assert "test group  3 (2 in this book)" in groups
    v3 = run(tmp_path, db, "export", "-", "--format", "vcard3").stdout
    v4 = run(tmp_path, db, "export", "-", "--format", "vcard4").stdout
    # (text mode: CRLF read as LF)
    assert "X-ADDRESSBOOKSERVER-KIND:group\nFN:Team\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:0e6f6b0b" in v3
    assert "KIND:group" not in v3.replace("X-ADDRESSBOOKSERVER-KIND:group", "")
    assert "FN:test group\nKIND:group\nMEMBER:urn:uuid:1c6cd38e" in v4
    # The member whose card is elsewhere is kept, both ways
    assert v3.count("urn:uuid:d4c1baf6-f603-4fb5-8f19-d45eb1e7fb23") == 1
    assert v4.count("urn:uuid:d4c1baf6-f603-4fb5-8f19-d45eb1e7fb23") == 1
    # Imported again into a new book, the 3.0 export gives the same groups
    (tmp_path / "back.vcf").write_text(v3)
    other = str(tmp_path / "other.sqlite")
    again = run(tmp_path, other, "--create", "import", str(tmp_path / "back.vcf"))
    assert "2 groups (2 added, 0 updated)" in again.stdout
    assert run(tmp_path, other, "groups").stdout == groups


def test_csv_groups_column_written_and_read(tmp_path):
    db = book(tmp_path)
    run(tmp_path, db, "group", "new", "Family")
    run(tmp_path, db, "group", "add", "Family", "1", "2")
    run(tmp_path, db, "group", "new", "Climbing | club")
    run(tmp_path, db, "group", "add", "Climbing | club", "1")
    exported = run(tmp_path, db, "export", "-", "--format", "csv").stdout
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert {row["given_name"]: row["groups"] for row in rows} == {
        "Ann": "Climbing \\| club | Family", "Bob": "Family", "Cy": ""}
    (tmp_path / "book.csv").write_text(exported)
    other = str(tmp_path / "other.sqlite")
    imported = run(tmp_path, other, "--create", "import", str(tmp_path / "book.csv"))
    assert imported.returncode == 0, imported.stderr
    assert "3 added" in imported.stdout and "2 groups (2 added, 0 updated)" in imported.stdout
    groups = run(tmp_path, other, "groups").stdout
    assert "Climbing | club        1" in groups and "Family                 2" in groups


def test_googles_csv_labels_import_as_groups_without_its_system_groups(tmp_path):
    # Google Contacts' older export: labels in `Group Membership`, joined by " ::: "
    db = str(tmp_path / "google.sqlite")
    imported = run(tmp_path, db, "--create", "import", os.path.join(FIXTURES, "google-legacy.csv"))
    assert imported.returncode == 0, imported.stderr
    assert "4 added" in imported.stdout and "2 groups (2 added, 0 updated)" in imported.stdout
    groups = json.loads(run(tmp_path, db, "groups", "--json").stdout)
    listing = next(v["value"] for v in groups["displayed"] if v["kind"] == "contactGroups")
    assert {g["name"]: g["size"] for g in listing["groups"]} == {"Book club": 1, "Family": 3}
    family = run(tmp_path, db, "list", "--group", "Family").stdout
    assert "3 contacts in group Family" in family and "Di Evans" not in family
    # Labels are not tags any more: no contact has one
    assert "Tags" not in run(tmp_path, db, "show", "Cy Young").stdout


def test_query_offers_a_group_as_one_item_of_its_members_addresses(tmp_path):
    db = book(tmp_path)
    run(tmp_path, db, "group", "new", "Book club")
    run(tmp_path, db, "group", "add", "Book club", "3", "1")
    result = run(tmp_path, db, "query", "book")
    assert result.returncode == 0
    assert result.stdout == ("contactsbook: 1 group\n"
                             "ann@example.org, cy@example.org\tBook club\tgroup · 2 addresses\n")
    aerc = run(tmp_path, db, "query", "--format", "aerc", "club")
    assert aerc.stdout == "ann@example.org, cy@example.org\tBook club\n"
    person = run(tmp_path, db, "query", "cy")
    assert person.stdout == "contactsbook: 1 address\ncy@example.org\tCy Young\thome\n"


def test_rpc_group_methods_carry_membership(tmp_path):
    db = book(tmp_path)
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "contacts/group", "params": {"action": "new", "name": "Team"}},
        {"jsonrpc": "2.0", "id": 2, "method": "contacts/group",
         "params": {"action": "add", "name": "Team", "values": "2"}},
        {"jsonrpc": "2.0", "id": 3, "method": "contacts/groups"},
        {"jsonrpc": "2.0", "id": 4, "method": "contacts/list", "params": {"group": "Team"}},
        {"jsonrpc": "2.0", "id": 5, "method": "contacts/list", "params": {"ungrouped": True}},
    ]
    result = run(tmp_path, db, "--rpc", script="".join(json.dumps(r) + "\n" for r in requests))
    assert result.returncode == 0, result.stderr
    frames = list(map(json.loads, result.stdout.splitlines()))
    answers = {a["id"]: a for a in frames if "id" in a}
    # Each change to a group is announced, as contacts' changes are
    assert {"topic": "groups", "kind": "updated", "ids": [], "external": False} in [
        f["params"] for f in frames if f.get("method") == "session/dataChanged"]
    changed = answers[2]["result"]["displayed"][0]
    assert changed["kind"] == "groupChanged" and changed["value"]["changed"] == [2]
    assert answers[3]["result"]["displayed"][0]["value"]["groups"][0]["members"] == [changed["value"]["members"][0]]
    assert [r["id"] for r in answers[4]["result"]["displayed"][0]["value"]["rows"]] == [2]
    assert [r["id"] for r in answers[5]["result"]["displayed"][0]["value"]["rows"]] == [1, 3]
