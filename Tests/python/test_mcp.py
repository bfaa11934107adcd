"""`contactsbook --mcp` driven by the official MCP Python SDK as a real client, in both its
`legacy` mode (2025-11-25's initialize handshake) and its `auto` mode (2026-07-28's
`server/discover` and per-request `_meta`). Structured results are checked against the output
schemas the server lists, with jsonschema."""
import json
import pathlib
import re
import subprocess

import anyio
import jsonschema
import pytest
from mcp import Client, StdioServerParameters

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
            assert [t.name for t in tools] == ["search", "get", "add", "update", "delete", "import", "export"]
            for tool in tools:
                jsonschema.Draft202012Validator.check_schema(tool.input_schema)
                jsonschema.Draft202012Validator.check_schema(tool.output_schema)
            hints = {t.name: t.annotations for t in tools}
            assert hints["get"].read_only_hint and hints["search"].read_only_hint
            assert hints["delete"].destructive_hint and not hints["add"].read_only_hint
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
    documented = set(re.findall(r"^\| `([^`]+)` \|", section, flags=re.MULTILINE))

    async def body():
        async with client(tmp_path, "auto") as c:
            return {t.name for t in (await c.list_tools()).tools}
    assert anyio.run(body) == documented


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
