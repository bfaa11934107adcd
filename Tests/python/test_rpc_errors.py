"""Error paths end to end, stdout carrying frames only, --api-info, and notification order."""
import json
import subprocess

import pytest

from rpc_client import TIMEOUT, binary, frame, isolated_env, parse_frames, run_rpc

FRAMINGS = ["content-length", "ndjson"]


def req(id, method, params=None):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return message


@pytest.mark.parametrize("framing", FRAMINGS)
def test_every_error_path(spawn_rpc, framing):
    rpc = spawn_rpc(framing)
    rpc.request("initialize", {})

    # -32700: not JSON, id null, the session goes on
    rpc.send(b'{"jsonrpc": "2.0", "id": 1, "method": ')
    _, response = rpc.until_response(None)
    assert response["error"]["code"] == -32700

    # -32600: not a 2.0 request, with the id when it can be recovered
    rpc.send({"jsonrpc": "1.0", "id": 7, "method": "session/stack"})
    _, response = rpc.until_response(7)
    assert response["error"]["code"] == -32600
    rpc.send({"jsonrpc": "2.0", "id": 8, "method": 3})
    _, response = rpc.until_response(8)
    assert response["error"]["code"] == -32600
    rpc.send([])
    _, response = rpc.until_response(None)
    assert response["error"]["code"] == -32600

    # -32601 with the method named
    _, response = rpc.request("contacts/frobnicate")
    assert response["error"]["code"] == -32601
    assert response["error"]["data"]["method"] == "contacts/frobnicate"

    # -32602 with data naming the parameter and what was expected
    _, response = rpc.request("contacts/page", {"number": "2"})
    error = response["error"]
    assert error["code"] == -32602
    assert error["data"] == {"method": "contacts/page", "parameter": "number", "reason": "invalid",
                             "expected": error["data"]["expected"], "got": "2"}
    assert "integer" in error["data"]["expected"]
    _, response = rpc.request("contacts/search", {})
    assert response["error"]["data"]["reason"] == "missing"
    assert response["error"]["data"]["parameter"] == "text"
    _, response = rpc.request("contacts/sort", {"by": "first", "colour": "red"})
    assert response["error"]["data"]["reason"] == "unexpected"
    assert response["error"]["data"]["parameter"] == "colour"
    _, response = rpc.request("contacts/sort", {"by": "fir"})
    assert response["error"]["code"] == -32602
    assert response["error"]["data"]["expected"].count("first") == 1

    # app errors: not found (-32011), invalid state (-32014), with structured data
    notes, response = rpc.request("contacts/show", {"contact": "nobody at all"})
    assert response["error"]["code"] == -32011
    assert response["error"]["data"]["code"] == "not_found"
    assert [n["method"] for n in notes] == ["session/message"]
    _, response = rpc.request("session/back")
    assert response["error"]["code"] == -32014
    assert response["error"]["data"]["code"] == "invalid_state"
    _, response = rpc.request("session/popTo", {"scene": "form"})
    assert response["error"]["code"] == -32011

    # a scene that is not on the stack: data shows the stack
    rpc.request("contacts/add")
    rpc.request("session/popTo", {"scene": "contacts"})
    _, response = rpc.request("form/save")
    error = response["error"]
    assert error["code"] == -32013
    assert error["data"]["code"] == "scene_not_active"
    assert [s["scene"] for s in error["data"]["stack"]] == ["contacts"]
    assert error["data"]["details"] == {"active": "contacts", "stack": "contacts"}

    # after all that, the session still works, and unknown notifications are ignored
    rpc.notify("$/somethingUnknown", {"x": 1})
    _, response = rpc.request("session/stack")
    assert "result" in response
    rpc.request("shutdown")
    _, response = rpc.request("session/stack")
    assert response["error"]["code"] == -32600
    rpc.notify("exit")
    assert rpc.wait() == 0


def test_content_length_requires_initialize(spawn_rpc):
    rpc = spawn_rpc("content-length")
    _, response = rpc.request("session/stack")
    assert response["error"]["code"] == -32002
    rpc.request("initialize", {})
    _, response = rpc.request("initialize", {})
    assert response["error"]["code"] == -32600


def test_a_batch_is_answered_with_an_array_after_all_its_notifications(spawn_rpc):
    rpc = spawn_rpc("ndjson")
    rpc.send([req(1, "contacts/add"), {"jsonrpc": "2.0", "method": "initialized"}, req(2, "session/back")])
    notes = []
    while True:
        message = rpc.next_message()
        if isinstance(message, list):
            break
        notes.append(message["method"])
    assert notes == ["session/stackChanged", "session/stackChanged"]
    assert [r["id"] for r in message] == [1, 2]


# Everything on stdout is a frame, even under errors and with trace logging on stderr.

NASTY_INPUTS = [
    b"this is not json",
    b'{"jsonrpc":"2.0","id":1,"method":"contacts/page","params":{"number":"x"}}',
    b'{"jsonrpc":"2.0","id":2,"method":"nope"}',
    b'{"jsonrpc":"2.0","id":3,"method":"contacts/show","params":{"contact":"zz"}}',
    b'{"jsonrpc":"2.0","id":4,"method":"contacts/add"}',
    b'{"jsonrpc":"2.0","id":5,"method":"form/email","params":{"value":"bad"}}',
    b'{"jsonrpc":"2.0","id":6,"method":"form/save"}',
    b'{"jsonrpc":"2.0","id":7,"method":"form/given","params":{"value":"Zoe"}}',
    b'{"jsonrpc":"2.0","id":8,"method":"form/clear","params":{"field":"emails"}}',
    b'{"jsonrpc":"2.0","id":9,"method":"form/save"}',
    b'[1, 2]',
    b'\xff\xfe not utf-8',
    b'{"jsonrpc":"2.0","id":10,"method":"shutdown"}',
    b'{"jsonrpc":"2.0","method":"exit"}',
]


@pytest.mark.parametrize("framing", FRAMINGS)
def test_stdout_holds_nothing_but_frames(tmp_path, framing):
    data = frame(req(0, "initialize", {}), framing) + b"".join(frame(m, framing) for m in NASTY_INPUTS)
    result = run_rpc(tmp_path, data, extra_args=["--log-level", "trace"])
    assert result.returncode == 0, result.stderr
    messages = parse_frames(result.stdout, "content-length" if framing == "content-length" else "ndjson")
    responses = [m for m in messages if isinstance(m, list) or "id" in m]
    # one answer per request and per bad message (the batch [1, 2] gets one array)
    assert len(responses) == 14
    assert [r["id"] for r in responses if isinstance(r, dict) and r["id"] is not None] == list(range(0, 11))
    assert b"trace" in result.stderr or b"debug" in result.stderr  # the logs went to stderr
    assert b"opening the book" in result.stderr


def test_framing_lost_writes_nothing_to_stdout(tmp_path):
    data = frame(req(0, "initialize", {}), "content-length") + b"Content-Length: 12x\r\n\r\n{}"
    result = run_rpc(tmp_path, data, extra_args=["--log-level", "trace"])
    assert result.returncode == 1
    messages = parse_frames(result.stdout, "content-length")
    assert [m["id"] for m in messages] == [0]
    assert b"framing lost" in result.stderr


def test_server_diagnostics_follow_the_log_level(tmp_path):
    # The client's name is an info line: shown with --log-level info, not at the default (warning).
    data = frame(req(0, "initialize", {"clientInfo": {"name": "probe"}}), "ndjson")
    quiet = run_rpc(tmp_path, data)
    assert quiet.returncode == 0 and quiet.stderr == b""
    chatty = run_rpc(tmp_path, data, extra_args=["--log-level", "info"])
    assert chatty.returncode == 0
    assert b'client: {"name":"probe"}' in chatty.stderr and b"info" in chatty.stderr


def test_api_info_equals_session_describe(tmp_path):
    api_info = subprocess.run([binary(), "--api-info"], capture_output=True, env=isolated_env(tmp_path),
                              timeout=TIMEOUT)
    assert api_info.returncode == 0 and api_info.stderr == b""
    result = run_rpc(tmp_path, frame(req(1, "session/describe"), "ndjson"))
    (response,) = parse_frames(result.stdout, "ndjson")
    assert json.loads(api_info.stdout) == response["result"]
    names = [m["name"] for m in response["result"]["methods"]]
    assert "contacts/search" in names and "form/save" in names


def test_notifications_come_in_order_before_the_response(spawn_rpc):
    rpc = spawn_rpc("content-length")
    rpc.request("initialize", {})
    rpc.request("contacts/add")
    rpc.request("form/given", {"value": "Ann"})
    notes, response = rpc.request("form/save")
    assert [n["method"] for n in notes] == ["session/dataChanged", "session/message", "session/stackChanged"]
    assert notes[0]["params"]["topic"] == "contacts" and notes[0]["params"]["kind"] == "created"
    # messages in display order, matching the result's displayed messages
    displayed = [d["value"] for d in response["result"]["displayed"] if d["kind"] == "message"]
    assert [notes[1]["params"]] == displayed
    assert notes[2]["params"]["routes"] == response["result"]["routes"]
    # delete from the list: dataChanged then message, no stack change
    contact_id = notes[0]["params"]["ids"][0]
    notes, response = rpc.request("contacts/delete", {"contact": "1"})
    assert [n["method"] for n in notes] == ["session/dataChanged", "session/message"]
    assert notes[0]["params"] == {"topic": "contacts", "kind": "deleted", "ids": [contact_id], "external": False}


def test_progress_token_is_accepted_by_every_method(spawn_rpc):
    # No contact action is long yet, so no progress is sent; the tokens must not be refused.
    rpc = spawn_rpc("ndjson")
    notes, response = rpc.request("contacts/list", {"workDoneToken": "w1"})
    assert "result" in response and notes == []
    notes, response = rpc.request("contacts/list", {"_meta": {"progressToken": 5}})
    assert "result" in response and notes == []


CARDS = "".join(
    f"BEGIN:VCARD\r\nVERSION:4.0\r\nUID:p-{i}\r\nN:Person{i};Ann;;;\r\nFN:Ann Person{i}\r\nEND:VCARD\r\n"
    for i in range(3)
)


def test_import_with_a_token_reports_progress_before_its_response(spawn_rpc, tmp_path):
    # Given a vCard file and a client that asks for LSP-style progress
    path = tmp_path / "three.vcf"
    path.write_text(CARDS, newline="")
    rpc = spawn_rpc("content-length")
    rpc.request("initialize", {})
    # When it imports
    notes, response = rpc.request("contacts/import", {"path": str(path), "workDoneToken": "imp-1"})
    # Then $/progress begin, reports and end come first, then the change, then the answer
    assert "result" in response, response
    progress = [n["params"] for n in notes if n["method"] == "$/progress"]
    assert [p["token"] for p in progress] == ["imp-1"] * 4
    assert [p["value"]["kind"] for p in progress] == ["begin", "report", "report", "end"]
    assert progress[0]["value"]["title"] == "Importing contacts"
    assert progress[2]["value"]["message"] == "saved"
    changes = [n["params"] for n in notes if n["method"] == "session/dataChanged"]
    assert changes == [{"topic": "contacts", "kind": "created", "ids": ["1", "2", "3"], "external": False}]
    methods = [n["method"] for n in notes]
    assert methods == ["$/progress", "$/progress", "session/dataChanged", "$/progress", "$/progress", "session/message"]


def test_import_without_a_token_sends_no_progress(spawn_rpc, tmp_path):
    path = tmp_path / "three.vcf"
    path.write_text(CARDS, newline="")
    rpc = spawn_rpc("ndjson")
    notes, response = rpc.request("contacts/import", {"path": str(path)})
    assert "result" in response, response
    assert [n["method"] for n in notes if n["method"] in ("$/progress", "notifications/progress")] == []


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_message_over_the_configured_limit_is_refused_and_the_session_goes_on(spawn_rpc, framing):
    # Given a server that accepts messages of at most 200 bytes
    rpc = spawn_rpc(framing, extra_args=("--rpc-max-message", "200"))
    rpc.request("initialize", {})
    # When a larger one arrives
    rpc.send(req(2, "contacts/search", {"text": "x" * 300}))
    _, response = rpc.until_response(None)
    # Then it is refused with its size and the limit
    assert response["error"]["code"] == -32600
    assert response["error"]["data"]["limit"] == 200
    assert response["error"]["data"]["size"] > 200
    # And a small one still works
    _, response = rpc.request("contacts/search", {"text": "ann"})
    assert "result" in response


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_batch_over_the_length_limit_is_refused_whole_and_the_session_goes_on(spawn_rpc, framing):
    # Given a server that takes batches of at most 3 messages
    rpc = spawn_rpc(framing, extra_args=("--rpc-max-batch", "3"))
    rpc.request("initialize", {})
    # When a batch of 4 arrives (an add among them)
    rpc.send([req(10, "contacts/search", {"text": "x"}), req(11, "contacts/add"), req(12, "session/stack"),
              req(13, "session/stack")])
    _, response = rpc.until_response(None)
    # Then it is refused whole, with its length and the limit, and nothing in it ran
    assert response["error"]["code"] == -32600
    assert response["error"]["data"] == {"length": 4, "limit": 3}
    _, response = rpc.request("session/stack")
    assert [scene["scene"] for scene in response["result"]["stack"]] == ["contacts"]
    # And a batch of 3 is answered, in one array
    rpc.send([req(20 + i, "session/stack") for i in range(3)])
    answer = rpc.next_message()
    assert [r["id"] for r in answer] == [20, 21, 22]


def test_the_default_batch_limit_is_1000_and_counts_the_whole_batch(tmp_path):
    batch = json.dumps([req(i, "session/stack") for i in range(100_000)]).encode() + b"\n"
    result = run_rpc(tmp_path, batch)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers == [{"jsonrpc": "2.0", "id": None, "error": {
        "code": -32600, "message": "invalid request: a batch of 100000 messages exceeds the limit of 1000",
        "data": {"length": 100000, "limit": 1000}}}]


def test_mcp_shares_the_batch_limit(tmp_path):
    batch = json.dumps([{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(3)]).encode() + b"\n"
    result = subprocess.run([binary(), "--mcp", "--create", "--db", str(tmp_path / "book.sqlite"),
                             "--rpc-max-batch", "2"], input=batch, capture_output=True, env=isolated_env(tmp_path),
                            timeout=TIMEOUT)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [answer["error"]["data"] for answer in answers] == [{"length": 3, "limit": 2}]


def test_limits_below_a_sane_minimum_are_refused_as_flags(tmp_path):
    result = subprocess.run([binary(), "--rpc", "--rpc-max-message", "10"], input=b"", capture_output=True,
                            env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert result.returncode == 64
    assert b"--rpc-max-message must be at least 64 bytes" in result.stderr
    assert result.stdout == b""
    result = subprocess.run([binary(), "--rpc", "--rpc-max-batch", "0"], input=b"", capture_output=True,
                            env=isolated_env(tmp_path), timeout=TIMEOUT)
    assert result.returncode == 64
    assert b"--rpc-max-batch must be at least 1" in result.stderr
    assert result.stdout == b""


def test_delete_by_part_of_a_name_is_refused_until_confirmed(spawn_rpc):
    rpc = spawn_rpc("ndjson")
    rpc.request("initialize", {})
    rpc.request("contacts/add")
    rpc.request("form/given", {"value": "Bob"})
    rpc.request("form/family", {"value": "Smith"})
    rpc.request("form/save")
    _, response = rpc.request("contacts/delete", {"contact": "bo"})
    error = response["error"]
    assert error["code"] == -32017
    assert error["data"]["code"] == "confirmation_required"
    assert "delete bo yes" in error["message"]
    _, response = rpc.request("contacts/search", {"text": "bob"})
    assert response["result"]["displayed"][0]["value"]["total"] == 1
    notes, response = rpc.request("contacts/delete", {"contact": "bo", "confirm": True})
    assert "result" in response
    assert [n["method"] for n in notes] == ["session/dataChanged", "session/message"]
