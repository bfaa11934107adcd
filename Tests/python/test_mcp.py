"""`contactsbook --mcp` driven by the official MCP Python SDK as a real client, in both its
`legacy` mode (2025-11-25's initialize handshake) and its `auto` mode (2026-07-28's
`server/discover` and per-request `_meta`). Structured results are checked against the output
schemas the server lists, with jsonschema."""
import datetime
import json
import pathlib
import re
import subprocess

import anyio
import jsonschema
import pytest
from mcp import Client, StdioServerParameters

from carddav_servers import vcard
from rpc_client import TIMEOUT, binary, isolated_env

MODES = {"legacy": "2025-11-25", "auto": "2026-07-28"}

ANN = {"given": "Ann", "family": "Lee", "organization": "Acme", "title": "Engineer", "nickname": "Annie",
       "birthday": "1990-05-17", "notes": "met at the conference",
       "phone": [{"label": "mobile", "value": "+1 555 123 4567"}], "email": [{"label": "work", "value": "ann@acme.test"}],
       "address": [{"label": "home", "value": "1 Main St; Springfield; IL; 62701; USA"}], "tag": ["friend"]}


def client(tmp_path, mode, **kwargs):
    params = StdioServerParameters(command=binary(), args=["--mcp", "--db", str(tmp_path / "book.sqlite"), "--create"],
                                   env=isolated_env(tmp_path))
    return Client(params, mode=mode, read_timeout_seconds=TIMEOUT, **kwargs)


def run(body):
    anyio.run(body)


class Checked:
    """Calls tools and checks each successful result against the tool's output schema."""

    def __init__(self, c, tools):
        self.c = c
        self.tools = {t.name: t for t in tools}

    async def call(self, name, arguments, **kwargs):
        result = await self.c.call_tool(name, arguments, **kwargs)
        if not result.is_error:
            jsonschema.validate(result.structured_content, self.tools[name].output_schema)
            assert result.content[0].text
        return result


@pytest.mark.parametrize("mode", MODES)
def test_every_tool_in_turn_with_results_matching_their_schemas(tmp_path, mode):
    async def body():
        async with client(tmp_path, mode) as c:
            assert c.protocol_version == MODES[mode]
            tools = (await c.list_tools()).tools
            assert [t.name for t in tools] == ["search", "get", "add", "update", "delete", "import", "export",
                                               "duplicates", "merge", "birthdays", "groups", "group", "undo", "sync"]
            for tool in tools:
                jsonschema.Draft202012Validator.check_schema(tool.input_schema)
                jsonschema.Draft202012Validator.check_schema(tool.output_schema)
            hints = {t.name: t.annotations for t in tools}
            assert hints["get"].read_only_hint and hints["search"].read_only_hint
            assert hints["delete"].destructive_hint and not hints["add"].read_only_hint
            assert not hints["add"].destructive_hint and hints["update"].destructive_hint
            assert hints["update"].idempotent_hint and hints["import"].destructive_hint
            assert hints["duplicates"].read_only_hint and hints["birthdays"].read_only_hint
            assert hints["birthdays"].idempotent_hint and hints["merge"].destructive_hint
            assert hints["undo"].destructive_hint and not hints["undo"].idempotent_hint
            assert hints["sync"].destructive_hint and hints["sync"].open_world_hint
            book = Checked(c, tools)

            added = await book.call("add", ANN)
            contact = added.structured_content["contact"]
            assert not added.is_error
            assert (contact["givenName"], contact["version"], contact["tags"]) == ("Ann", 1, ["friend"])
            assert contact["addresses"][0]["postalCode"] == "62701"

            by_uid = await book.call("get", {"contact": contact["uid"]})
            by_number = await book.call("get", {"contact": contact["id"]})
            assert by_uid.structured_content == by_number.structured_content

            found = await book.call("search", {"text": "acme"})
            assert [row["name"] for row in found.structured_content["rows"]] == ["Ann Lee"]

            updated = await book.call("update", {"contact": contact["uid"], "version": 1, "title": "CTO", "nickname": ""})
            assert updated.structured_content["contact"]["title"] == "CTO"
            assert updated.structured_content["contact"]["nickname"] == ""
            assert updated.structured_content["version"] == 2

            exported = await book.call("export", {"path": "-"})
            assert exported.structured_content["count"] == 1
            card = tmp_path / "ann.vcf"
            card.write_text(exported.structured_content["text"].replace("Ann", "Anne"))
            imported = await book.call("import", {"path": str(card)})
            assert not imported.is_error, imported.content[0].text
            again = await book.call("get", {"contact": contact["uid"]})
            assert again.structured_content["contact"]["givenName"] == "Anne"

            deleted = await book.call("delete", {"contact": contact["uid"]})
            assert deleted.structured_content["deleted"]["uid"] == contact["uid"]
            empty = await book.call("search", {"text": ""})
            assert empty.structured_content["total"] == 0
    run(body)


def test_websites_are_added_updated_and_read_as_the_form_takes_them(tmp_path):
    async def body():
        async with client(tmp_path, "auto") as c:
            tools = (await c.list_tools()).tools
            add = next(t for t in tools if t.name == "add")
            assert add.input_schema["properties"]["website"]["type"] == "array"
            book = Checked(c, tools)
            added = await book.call("add", {"given": "Ann", "website": [{"label": "work", "value": "https://ann.example"},
                                                                      {"value": "ann.example/blog"}]})
            assert not added.is_error, added.content[0].text
            contact = added.structured_content["contact"]
            assert contact["websites"] == [{"label": "work", "value": "https://ann.example"},
                                           {"label": "home", "value": "ann.example/blog"}]
            assert {"label": "Website (work)", "value": "https://ann.example"} in added.structured_content["fields"]
            updated = await book.call("update", {"contact": contact["uid"], "version": 1,
                                                 "website": [{"label": "school", "value": "https://uni.example/ann"}]})
            assert updated.structured_content["contact"]["websites"] == [{"label": "school", "value": "https://uni.example/ann"}]
            found = await book.call("search", {"text": "uni"})
            assert [row["name"] for row in found.structured_content["rows"]] == ["Ann"]
            exported = await book.call("export", {"path": "-"})
            # "school" is no vCard TYPE: written as Apple and Google write a label
            assert "item1.URL:https://uni.example/ann\r\nitem1.X-ABLabel:school\r\n" in exported.structured_content["text"]
    run(body)


@pytest.mark.parametrize("mode", MODES)
def test_group_tools_with_results_matching_their_schemas(tmp_path, mode):
    async def body():
        async with client(tmp_path, mode) as c:
            tools = (await c.list_tools()).tools
            hints = {t.name: t.annotations for t in tools}
            assert hints["groups"].read_only_hint and hints["group"].destructive_hint
            book = Checked(c, tools)
            await book.call("add", {"given": "Ann", "family": "Lee"})
            await book.call("add", {"given": "Bob", "family": "Stone"})
            made = await book.call("group", {"action": "new", "name": "Book club"})
            assert not made.is_error, made.content[0].text
            added = await book.call("group", {"action": "add", "name": "book", "values": "1 'bob stone'"})
            assert added.structured_content["changed"] == [1, 2]
            listed = await book.call("groups", {})
            assert [(g["name"], g["size"], g["convention"]) for g in listed.structured_content["groups"]] == [
                ("Book club", 2, "vcard4")]
            members = await book.call("search", {"text": "", "group": "Book club"})
            assert members.structured_content["group"] == "Book club" and members.structured_content["total"] == 2
            alone = await book.call("search", {"text": "", "ungrouped": True})
            assert alone.structured_content["total"] == 0 and alone.structured_content["ungrouped"] is True
            got = await book.call("get", {"contact": 1})
            assert got.structured_content["contact"]["groups"] == ["Book club"]
            missing = await c.call_tool("group", {"action": "add", "name": "nope", "values": "1"})
            assert missing.is_error and "no group is named" in missing.content[0].text
            undone = await book.call("undo", {})
            assert undone.structured_content["message"] == "Undid: added Ann Lee, Bob Stone to group Book club"
    run(body)


@pytest.mark.parametrize("mode", MODES)
def test_duplicates_merge_and_birthdays_with_results_matching_their_schemas(tmp_path, mode):
    async def body():
        async with client(tmp_path, mode) as c:
            book = Checked(c, (await c.list_tools()).tools)
            none = await book.call("duplicates", {})
            assert none.structured_content["groups"] == [] and none.content[0].text == "No duplicates found"

            ann = (await book.call("add", ANN)).structured_content["contact"]
            anne = (await book.call("add", {"given": "Anne", "family": "Lee", "email": [{"value": "ANN@acme.test"}],
                                            "phone": [{"value": "+44 20 7946 0000"}]})).structured_content["contact"]
            await book.call("add", {"given": "Bo", "birthday": "--" + today.strftime("%m-%d")})

            found = await book.call("duplicates", {})
            [group] = found.structured_content["groups"]
            assert [row["id"] for row in group["rows"]] == [ann["id"], anne["id"]]
            assert group["reasons"][0]["kind"] == "email"  # strongest first
            assert group["merge"] == f"merge {ann['id']} {anne['id']}"

            merged = await book.call("merge", {"contacts": f"{ann['uid']} {anne['uid']}"})
            assert not merged.is_error, merged.content[0].text
            assert (merged.structured_content["id"], merged.structured_content["removed"]) == (ann["id"], [anne["id"]])
            assert [(d["kept"], d["dropped"], d["from"]) for d in merged.structured_content["differences"]] == \
                [("Ann", "Anne", anne["id"])]
            assert merged.content[0].text.startswith(f"Merged #{anne['id']} Anne Lee into #{ann['id']} Ann Lee")
            kept = await book.call("get", {"contact": ann["uid"]})
            assert len(kept.structured_content["contact"]["phones"]) == 2
            gone = await c.call_tool("get", {"contact": anne["uid"]})
            assert gone.is_error
            again = await c.call_tool("merge", {"contacts": f"{ann['uid']} {anne['uid']}"})
            assert again.is_error and anne["uid"] in again.content[0].text
            one = await c.call_tool("merge", {"contacts": str(ann["id"])})
            assert one.is_error and "two contacts or more" in one.content[0].text

            # 366 days ahead holds every birthday, whichever day the server's clock says it is.
            year = await book.call("birthdays", {"days": 366})
            entries = year.structured_content["entries"]
            assert {e["name"] for e in entries} == {"Ann Lee", "Bo"}
            assert [e["daysAway"] for e in entries] == sorted(e["daysAway"] for e in entries)
            bo = next(e for e in entries if e["name"] == "Bo")
            assert bo["date"].endswith(today.strftime("-%m-%d")) and "age" not in bo
            ann_entry = next(e for e in entries if e["name"] == "Ann Lee")
            assert ann_entry["date"].endswith("-05-17") and ann_entry["age"] == int(ann_entry["date"][:4]) - 1990
            default = await book.call("birthdays", {})
            assert default.structured_content["days"] == 30
            too_far = await c.call_tool("birthdays", {"days": 400})
            assert too_far.is_error and "days" in too_far.content[0].text
            assert not (await c.call_tool("search", {"text": ""})).is_error
    today = datetime.datetime.now(datetime.timezone.utc).date()
    run(body)


@pytest.mark.parametrize("mode", MODES)
def test_undo_takes_back_a_delete_and_a_whole_merge(tmp_path, mode):
    async def body():
        async with client(tmp_path, mode) as c:
            book = Checked(c, (await c.list_tools()).tools)
            nothing = await c.call_tool("undo", {})
            assert nothing.is_error and nothing.content[0].text == "Nothing to undo."
            ann = (await book.call("add", ANN)).structured_content["contact"]
            anne = (await book.call("add", {"given": "Anne", "family": "Lee"})).structured_content["contact"]

            await book.call("delete", {"contact": anne["uid"]})
            undone = await book.call("undo", {})
            assert undone.structured_content == {"message": "Undid: deleted Anne Lee"}
            assert undone.content[0].text == "Undid: deleted Anne Lee"
            back = await book.call("get", {"contact": anne["uid"]})
            assert back.structured_content["contact"]["givenName"] == "Anne"

            await book.call("merge", {"contacts": f"{ann['id']} {anne['id']}"})
            assert (await book.call("search", {"text": ""})).structured_content["total"] == 1
            assert not (await book.call("undo", {})).is_error
            both = await book.call("search", {"text": ""})
            assert sorted(row["name"] for row in both.structured_content["rows"]) == ["Ann Lee", "Anne Lee"]

            bad = await c.call_tool("undo", {"change": 0})
            assert bad.is_error and "change" in bad.content[0].text
            unknown = await c.call_tool("undo", {"change": 999})
            assert unknown.is_error and "999" in unknown.content[0].text
    run(body)
    # The book's history names MCP as the front end of these changes.
    history = subprocess.run([binary(), "--db", str(tmp_path / "book.sqlite")], input="history\n", capture_output=True,
                             text=True, env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert history.returncode == 0, history.stderr
    assert "mcp" in history.stdout and "line" not in history.stdout, history.stdout


@pytest.mark.parametrize("mode", MODES)
def test_sync_with_a_radicale_account_pulls_and_pushes_and_names_an_unknown_account(radicale, tmp_path, mode):
    radicale.put("bob.vcf", vcard("bob", "Bob", "Ray", "TEL;TYPE=cell:+1 555 0100"))
    account = ["account", "add", "home", radicale.base, "--user", "alice"]
    if radicale.password_command:
        account += ["--password-command", radicale.password_command]
    added = subprocess.run([binary(), *account, "--db", str(tmp_path / "book.sqlite"), "--create"], capture_output=True,
                           text=True, env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert added.returncode == 0, added.stderr

    async def body():
        async with client(tmp_path, mode) as c:
            book = Checked(c, (await c.list_tools()).tools)
            await book.call("add", {"given": "Cy", "family": "Dee"})
            synced = await book.call("sync", {"account": "home"})
            assert not synced.is_error, synced.content[0].text
            assert synced.structured_content["message"] == "home: pulled 1, pushed 1, merged 0, conflicts 0"
            found = await book.call("search", {"text": ""})
            assert sorted(row["name"] for row in found.structured_content["rows"]) == ["Bob Ray", "Cy Dee"]
            unknown = await c.call_tool("sync", {"account": "work"})
            assert unknown.is_error and "work" in unknown.content[0].text
    run(body)


def add_account(radicale, tmp_path):
    account = ["account", "add", "home", radicale.base, "--user", "alice"]
    if radicale.password_command:
        account += ["--password-command", radicale.password_command]
    added = subprocess.run([binary(), *account, "--db", str(tmp_path / "book.sqlite"), "--create"], capture_output=True,
                           text=True, env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert added.returncode == 0, added.stderr


def import_cards(tmp_path, count):
    cards = "".join(f"BEGIN:VCARD\r\nVERSION:4.0\r\nUID:local-{i}\r\nFN:P{i} Ann\r\nN:P{i};Ann;;;\r\nEND:VCARD\r\n"
                    for i in range(count))
    (tmp_path / "local.vcf").write_text(cards)
    # Only a guard against a hang: a debug build importing 40,000 cards on a loaded CI host has
    # taken more than TIMEOUT, and speed is the benchmark's business, not this test's.
    done = subprocess.run([binary(), "import", str(tmp_path / "local.vcf"), "--db", str(tmp_path / "book.sqlite"), "--create"],
                          capture_output=True, text=True, env=isolated_env(tmp_path), timeout=max(TIMEOUT, count / 100))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("mode", MODES)
def test_sync_reports_increasing_progress_before_its_result(radicale, tmp_path, mode):
    for i in range(3):
        radicale.put(f"r{i}.vcf", vcard(f"r{i}", f"R{i}", "Ray"))
    add_account(radicale, tmp_path)
    import_cards(tmp_path, 5)
    reports = []

    async def progress(value, total, message):
        reports.append((value, total, message))

    async def body():
        async with client(tmp_path, mode) as c:
            synced = await c.call_tool("sync", {"account": "home"}, progress_callback=progress)
            assert not synced.is_error, synced.content[0].text
            assert synced.structured_content["message"] == "home: pulled 3, pushed 5, merged 0, conflicts 0"
    run(body)
    assert reports[0] == (0, None, "Syncing home")
    values = [value for value, _, _ in reports]
    assert values == sorted(set(values)), reports
    # The 5 uploads count on from the 3 downloads, each one reported (none dropped for not
    # passing the download count)
    assert [r for r in reports if r[2] == "uploading"] == [(3 + n, 8, "uploading") for n in range(1, 6)], reports


@pytest.mark.parametrize("mode", MODES)
def test_cancelling_a_sync_stops_it_between_requests_and_the_next_sync_goes_on(radicale, tmp_path, mode):
    # 60 contacts to push are 60 PUTs: the cancellation, sent when the sync begins, is read
    # before one of the first of them (before the first, on this host), long before the last.
    add_account(radicale, tmp_path)
    import_cards(tmp_path, 60)
    finished = []

    async def body():
        async with client(tmp_path, mode) as c:
            scope = anyio.CancelScope()

            async def progress(value, total, message):
                scope.cancel()  # the SDK sends notifications/cancelled for the abandoned call

            with scope:
                finished.append(await c.call_tool("sync", {"account": "home"}, progress_callback=progress))
            # Answered only once the cancelled sync has stopped: the server works one request at a time.
            assert not (await c.call_tool("search", {"text": ""})).is_error
            pushed_before = len(radicale.names())
            assert pushed_before < 60
            # A bound for a loaded host only: 150 PUTs to Radicale took over 20 s at a load of 17.
            again = await c.call_tool("sync", {"account": "home"}, read_timeout_seconds=6 * TIMEOUT)
            assert not again.is_error, again.content[0].text
            assert again.structured_content["message"] == \
                f"home: pulled 0, pushed {60 - pushed_before}, merged 0, conflicts 0"
    run(body)
    assert finished == []
    assert len(radicale.names()) == 60  # each contact once: nothing pushed twice


def test_sync_without_accounts_says_how_to_add_one(tmp_path):
    async def body():
        async with client(tmp_path, "auto") as c:
            result = await c.call_tool("sync", {})
            assert not result.is_error
            assert result.structured_content == {"message": "No accounts to sync; add one with 'contactsbook account add'."}
    run(body)


@pytest.mark.parametrize("mode", MODES)
def test_a_failed_call_says_which_field_and_why_and_the_server_goes_on(tmp_path, mode):
    async def body():
        async with client(tmp_path, mode) as c:
            bad = await c.call_tool("add", {"nickname": "Annie", "birthday": "1990-13-45"})
            assert bad.is_error
            text = bad.content[0].text
            assert "birthday" in text and "YYYY-MM-DD" in text
            assert "given name" in text
            missing = await c.call_tool("get", {"contact": "nobody-here"})
            assert missing.is_error and "nobody-here" in missing.content[0].text
            assert list(missing.structured_content["details"]) == ["contact"]
            item = await c.call_tool("add", {"given": "Bo", "phone": [{"label": "work"}]})
            assert item.is_error and item.content[0].text.startswith("phone[0]: 'value' is required")
            string = await c.call_tool("add", {"given": "Bo", "email": ["bo@x.test"]})
            assert string.is_error and string.content[0].text == "'email[0]' must be an object {label?, value}, not string"
            after = await c.call_tool("add", {"given": "Bo"})
            assert not after.is_error
            assert after.structured_content["contact"]["givenName"] == "Bo"
    run(body)


@pytest.mark.parametrize("mode", MODES)
def test_a_stale_update_is_refused_naming_the_newer_version(tmp_path, mode):
    async def body():
        async with client(tmp_path, mode) as c:
            uid = (await c.call_tool("add", {"given": "Ann"})).structured_content["contact"]["uid"]
            first = await c.call_tool("update", {"contact": uid, "version": 1, "family": "Lee"})
            assert not first.is_error
            stale = await c.call_tool("update", {"contact": uid, "version": 1, "family": "Smith"})
            assert stale.is_error
            assert "version 2" in stale.content[0].text
            assert stale.structured_content["details"]["currentVersion"] == "2"
            now = await c.call_tool("get", {"contact": uid})
            assert now.structured_content["contact"]["familyName"] == "Lee"
    run(body)


@pytest.mark.parametrize("mode", MODES)
def test_each_contact_is_a_vcard_resource(tmp_path, mode):
    async def body():
        async with client(tmp_path, mode) as c:
            uid = (await c.call_tool("add", ANN)).structured_content["contact"]["uid"]
            templates = (await c.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == ["contact://{uid}"]
            listed = (await c.list_resources()).resources
            assert [str(r.uri) for r in listed] == [f"contact://{uid}"]
            contents = (await c.read_resource(f"contact://{uid}")).contents[0]
            assert contents.mime_type == "text/vcard"
            assert contents.text.startswith("BEGIN:VCARD\r\nVERSION:4.0\r\n")
            assert f"UID:{uid}\r\n" in contents.text
    run(body)


# 2025's resources/subscribe is what this server serves; the SDK warns that 2026 replaced it.
@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_a_subscribed_contact_is_announced_when_it_changes(tmp_path):
    updated = []
    seen = anyio.Event()

    async def on_message(message):
        root = getattr(message, "root", message)
        if getattr(root, "method", None) == "notifications/resources/updated":
            updated.append(str(root.params.uri))
            seen.set()

    async def body():
        async with client(tmp_path, "legacy", message_handler=on_message) as c:
            uid = (await c.call_tool("add", {"given": "Ann"})).structured_content["contact"]["uid"]
            await c.subscribe_resource(f"contact://{uid}")
            await c.call_tool("update", {"contact": uid, "version": 1, "family": "Lee"})
            with anyio.fail_after(TIMEOUT):
                await seen.wait()
            assert updated == [f"contact://{uid}"]
    run(body)


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_a_merge_announces_the_kept_contact_and_the_deleted_one(tmp_path):
    updated = set()
    both = anyio.Event()

    async def on_message(message):
        root = getattr(message, "root", message)
        if getattr(root, "method", None) == "notifications/resources/updated":
            updated.add(str(root.params.uri))
            if len(updated) == 2:
                both.set()

    async def body():
        async with client(tmp_path, "legacy", message_handler=on_message) as c:
            first = (await c.call_tool("add", {"given": "Ann", "family": "Lee"})).structured_content["contact"]["uid"]
            second = (await c.call_tool("add", {"given": "Anne", "family": "Lee"})).structured_content["contact"]["uid"]
            for uid in (first, second):
                await c.subscribe_resource(f"contact://{uid}")
            merged = await c.call_tool("merge", {"contacts": f"{first} {second}"})
            assert not merged.is_error, merged.content[0].text
            with anyio.fail_after(TIMEOUT):
                await both.wait()
            assert updated == {f"contact://{first}", f"contact://{second}"}
    run(body)


async def change_elsewhere(tmp_path, uid):
    """Another `contactsbook` process (a piped line session) on the same book edits the contact."""
    done = await anyio.run_process([binary(), "--db", str(tmp_path / "book.sqlite")],
                                   input=f"show {uid}\nedit\nfamily Elsewhere\nsave\n".encode(),
                                   env=isolated_env(tmp_path), check=False)
    assert done.returncode == 0, done.stderr.decode()


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_a_subscribed_contact_another_process_changes_is_announced(tmp_path):
    updated = []
    seen = anyio.Event()

    async def on_message(message):
        root = getattr(message, "root", message)
        if getattr(root, "method", None) == "notifications/resources/updated":
            updated.append(str(root.params.uri))
            seen.set()

    async def body():
        async with client(tmp_path, "legacy", message_handler=on_message) as c:
            uid = (await c.call_tool("add", {"given": "Ann"})).structured_content["contact"]["uid"]
            other = (await c.call_tool("add", {"given": "Bo"})).structured_content["contact"]["uid"]
            await c.subscribe_resource(f"contact://{uid}")
            await change_elsewhere(tmp_path, other)  # not subscribed: no notice
            await change_elsewhere(tmp_path, uid)
            with anyio.fail_after(TIMEOUT):
                await seen.wait()
            assert updated == [f"contact://{uid}"]
            now = await c.read_resource(f"contact://{uid}")
            assert "N:Elsewhere;Ann;" in now.contents[0].text
    run(body)


def test_listen_in_auto_mode_hears_this_sessions_and_other_processes_changes(tmp_path):
    async def body():
        async with client(tmp_path, "auto") as c:
            assert c.server_capabilities.resources.subscribe is True
            ann = (await c.call_tool("add", {"given": "Ann"})).structured_content["contact"]
            uri = f"contact://{ann['uid']}"
            async with c.listen(resource_subscriptions=[uri, "contact://nobody"]) as stream:
                assert stream.honored.resource_subscriptions == [uri]
                events = stream.__aiter__()
                updated = await c.call_tool("update", {"contact": ann["uid"], "version": 1, "family": "Lee"})
                assert not updated.is_error, updated.content[0].text
                with anyio.fail_after(TIMEOUT):
                    assert (await events.__anext__()).uri == uri
                await change_elsewhere(tmp_path, ann["uid"])
                with anyio.fail_after(TIMEOUT):
                    assert (await events.__anext__()).uri == uri
            # Leaving the stream cancels it; the server goes on answering.
            after = await c.call_tool("get", {"contact": ann["uid"]})
            assert after.structured_content["contact"]["familyName"] == "Elsewhere"
    run(body)


@pytest.mark.parametrize("mode", MODES)
def test_an_import_reports_progress(tmp_path, mode):
    cards = "".join(f"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:P{i}\r\nN:P{i};Ann;;;\r\nEND:VCARD\r\n" for i in range(300))
    (tmp_path / "many.vcf").write_text(cards)
    reports = []

    async def progress(value, total, message):
        reports.append(value)

    async def body():
        async with client(tmp_path, mode) as c:
            result = await c.call_tool("import", {"path": str(tmp_path / "many.vcf")}, progress_callback=progress)
            assert not result.is_error, result.content[0].text
            total = await c.call_tool("search", {"text": ""})
            assert total.structured_content["total"] == 300
    run(body)
    assert reports and reports == sorted(set(reports))


@pytest.mark.parametrize("mode", MODES)
def test_an_export_reports_progress(tmp_path, mode):
    import_cards(tmp_path, 2500)
    reports = []

    async def progress(value, total, message):
        reports.append((value, total, message))

    async def body():
        async with client(tmp_path, mode) as c:
            result = await c.call_tool("export", {"path": str(tmp_path / "out.vcf")}, progress_callback=progress)
            assert not result.is_error, result.content[0].text
    run(body)
    assert (tmp_path / "out.vcf").read_text().count("BEGIN:VCARD") == 2500
    values = [value for value, _, _ in reports]
    assert values == sorted(set(values)) and values[0] == 0, reports
    assert {total for _, total, _ in reports} == {2500}


def test_cancelling_an_export_writes_no_file_and_the_server_goes_on(tmp_path):
    # 40,000 contacts are 20 steps of 2,000: the cancellation, sent when the export begins, is
    # read at the end of the first, long before the last.
    import_cards(tmp_path, 40000)
    finished = []

    async def body():
        async with client(tmp_path, "auto") as c:
            scope = anyio.CancelScope()

            async def progress(value, total, message):
                scope.cancel()

            with scope:
                finished.append(await c.call_tool("export", {"path": str(tmp_path / "out.vcf")}, progress_callback=progress))
            after = await c.call_tool("search", {"text": "", "limit": 1})
            assert after.structured_content["total"] == 40000
    run(body)
    assert finished == []
    assert not (tmp_path / "out.vcf").exists()


def test_stdout_carries_protocol_messages_only_and_bad_input_gets_jsonrpc_errors(tmp_path):
    lines = [
        "{not json",
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "initialize",
                    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no-such-tool"}}),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "add", "arguments": {"given": 5}}}),
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": "ping"}),
    ]
    done = subprocess.run([binary(), "--mcp", "--db", str(tmp_path / "book.sqlite"), "--create"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [None, 1, 2, 3, 4, 5]
    assert answers[0]["error"]["code"] == -32700
    assert answers[1]["error"]["code"] == -32600
    assert answers[2]["result"]["protocolVersion"] == "2025-11-25"
    assert answers[3]["error"]["code"] == -32602
    assert answers[4]["result"]["isError"] is True
    assert "'given' must be a string" in answers[4]["result"]["content"][0]["text"]
    assert answers[5]["result"] == {}


def test_protocol_md_documents_exactly_the_tools_served(tmp_path):
    protocol = (pathlib.Path(__file__).resolve().parents[2] / "Protocol.md").read_text()
    section = protocol[protocol.index("## 14. MCP"):]
    # Up to the next section (15, the LSP profile, has tables of its own).
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    documented = set(re.findall(r"^\| `([^`]+)` \|", section, flags=re.MULTILINE))

    async def body():
        async with client(tmp_path, "auto") as c:
            return {t.name for t in (await c.list_tools()).tools}
    assert anyio.run(body) == documented


@pytest.mark.parametrize("mode", MODES)
def test_the_readme_agent_configuration_starts_the_server(tmp_path, mode):
    """README's `mcpServers` lines, as an agent reads them: the command found on PATH, the args
    with the book's path, `--create` added for a new book as README says."""
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## For AI agents: MCP"):]
    config = json.loads(re.search(r"```json\n(.*?)```", section, flags=re.DOTALL).group(1))
    server = config["mcpServers"]["contactsbook"]
    assert server["command"] == "contactsbook"
    args = [str(tmp_path / "book.sqlite") if arg.endswith("contacts.sqlite") else arg for arg in server["args"]]
    assert args[:2] == ["--mcp", "--db"]
    env = isolated_env(tmp_path)
    env["PATH"] = str(pathlib.Path(binary()).parent) + ":" + env["PATH"]
    params = StdioServerParameters(command=server["command"], args=args + ["--create"], env=env)

    async def body():
        async with Client(params, mode=mode, read_timeout_seconds=TIMEOUT) as c:
            assert len((await c.list_tools()).tools) == 14
            assert not (await c.call_tool("add", {"given": "Ann"})).is_error
    run(body)
    assert (tmp_path / "book.sqlite").exists()


@pytest.mark.parametrize("other", ["--rpc", "--repl"])
def test_mcp_excludes_the_other_modes(tmp_path, other):
    done = subprocess.run([binary(), "--mcp", other, "--db", ":memory:"], input="", capture_output=True, text=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert done.returncode == 64
    assert f"--mcp and {other} exclude each other" in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("mode", MODES)
def test_cancelling_an_import_keeps_nothing_and_the_server_goes_on(tmp_path, mode):
    # 40,000 cards are 20 batches: the cancellation, sent when the import begins, is read at the
    # end of the first batch, long before the last.
    cards = "".join(f"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:P{i}\r\nN:P{i};Ann;;;\r\nEND:VCARD\r\n" for i in range(40000))
    (tmp_path / "big.vcf").write_text(cards)
    finished = []

    async def body():
        async with client(tmp_path, mode) as c:
            scope = anyio.CancelScope()

            async def progress(value, total, message):
                scope.cancel()  # the SDK sends notifications/cancelled for the abandoned call

            with scope:
                finished.append(await c.call_tool("import", {"path": str(tmp_path / "big.vcf")}, progress_callback=progress))
            after = await c.call_tool("search", {"text": ""})
            assert after.structured_content["total"] == 0
    run(body)
    assert finished == []
