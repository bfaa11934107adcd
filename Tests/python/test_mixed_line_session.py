"""The default line session on a pipe: commands and JSON-RPC lines in one stream, one session."""
import json
import subprocess

from rpc_client import TIMEOUT, binary, isolated_env


def run_lines(tmp_path, lines):
    return subprocess.run([binary(), "--db", str(tmp_path / "book.sqlite"), "--create"],
                          input="".join(line + "\n" for line in lines), capture_output=True, text=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT)


def rpc(id, method, params=None):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message)


def json_lines(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{") or line.startswith("[")]


def test_commands_and_json_lines_drive_one_session(tmp_path):
    result = run_lines(tmp_path, [
        "add",
        rpc(1, "form/given", {"value": "Ann"}),
        "family Lee",
        rpc(2, "form/save"),
        "search lee",
        rpc(3, "session/stack"),
    ])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # commands answer in text, JSON lines in JSON, in input order
    assert lines[0] == "New contact"
    assert "family name: Lee" in lines
    assert any("1  Ann Lee" in line for line in lines)
    messages = json_lines(result.stdout)
    assert messages[0]["id"] == 1
    assert [s["scene"] for s in messages[0]["result"]["stack"]] == ["contacts", "form"]  # the command's push
    assert [m.get("method", m.get("id")) for m in messages[1:]] == [
        "session/dataChanged", "session/message", "session/stackChanged", 2, 3]
    assert [s["scene"] for s in messages[-1]["result"]["stack"]] == ["contacts"]
    # the JSON answer for the save comes before the text of the next command
    assert lines.index(json.dumps(messages[4], separators=(",", ":"), sort_keys=True)) < \
        next(i for i, line in enumerate(lines) if "1  Ann Lee" in line)


def test_json_errors_do_not_fail_the_session_but_commands_do(tmp_path):
    result = run_lines(tmp_path, [rpc(1, "nope"), "{not json", "stack"])
    assert result.returncode == 0, result.stderr
    messages = json_lines(result.stdout)
    assert [m["error"]["code"] for m in messages] == [-32601, -32700]
    assert "contacts" in result.stdout.splitlines()[-1]
    result = run_lines(tmp_path, ["bogus", rpc(1, "session/stack")])
    assert result.returncode == 1
    assert "unknown command 'bogus'" in result.stderr
    assert json_lines(result.stdout)[0]["id"] == 1


def test_json_exit_ends_the_line_session(tmp_path):
    result = run_lines(tmp_path, [rpc(1, "shutdown"), json.dumps({"jsonrpc": "2.0", "method": "exit"}), "add"])
    assert result.returncode == 0, result.stderr
    assert json_lines(result.stdout) == [{"jsonrpc": "2.0", "id": 1, "result": None}]
    assert "New contact" not in result.stdout
