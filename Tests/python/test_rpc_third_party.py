"""A stock third-party JSON-RPC client from PyPI (python-lsp-jsonrpc, the transport of
python-lsp-server) speaking Content-Length to `contactsbook --rpc`, end to end, unmodified."""
import subprocess
import threading

import pytest
from pylsp_jsonrpc.endpoint import Endpoint
from pylsp_jsonrpc.exceptions import JsonRpcException
from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

from rpc_client import TIMEOUT, binary, isolated_env


class Client:
    def __init__(self, tmp_path):
        self.proc = subprocess.Popen([binary(), "--rpc", "--db", str(tmp_path / "book.sqlite"), "--create"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=isolated_env(tmp_path))
        self.events = []  # notifications and responses, in the order the reader thread saw them
        writer = JsonRpcStreamWriter(self.proc.stdin)
        self.reader = JsonRpcStreamReader(self.proc.stdout)

        def recorder(method):
            return lambda params: self.events.append((method, params))

        handlers = {m: recorder(m) for m in ("session/message", "session/stackChanged", "session/dataChanged")}
        self.endpoint = Endpoint(handlers, writer.write)

        def consume(message):
            if "id" in message and "method" not in message:
                self.events.append(("response", message["id"]))
            self.endpoint.consume(message)

        self.listener = threading.Thread(target=self.reader.listen, args=(consume,), daemon=True)
        self.listener.start()

    def call(self, method, params=None):
        return self.endpoint.request(method, params).result(timeout=TIMEOUT)


def test_python_lsp_jsonrpc_drives_a_flow(tmp_path):
    client = Client(tmp_path)
    try:
        result = client.call("initialize", {"clientInfo": {"name": "pylsp-jsonrpc"}, "capabilities": {}})
        assert result["capabilities"]["framing"] == "contentLength"
        client.endpoint.notify("initialized", {})

        client.call("contacts/add")
        client.call("form/given", {"value": "Ann"})
        client.call("form/family", {"value": "Lee"})
        client.call("form/email", {"value": "ann@"})
        with pytest.raises(JsonRpcException) as failure:
            client.call("form/save")
        assert failure.value.code == -32010
        assert failure.value.data["details"] == {"email 1": failure.value.data["details"]["email 1"]}

        client.call("form/clear", {"field": "emails"})
        client.events.clear()
        result = client.call("form/save")
        assert [kind for kind, _ in client.events] == [
            "session/dataChanged", "session/message", "session/stackChanged", "response"]
        assert [s["scene"] for s in result["stack"]] == ["contacts"]

        result = client.call("contacts/search", {"text": "lee"})
        assert [row["name"] for row in result["displayed"][0]["value"]["rows"]] == ["Ann Lee"]
        result = client.call("contacts/show", {"contact": "1"})
        assert result["displayed"][0]["kind"] == "contactDetail"
        result = client.call("session/back")
        assert [s["scene"] for s in result["stack"]] == ["contacts"]

        with pytest.raises(JsonRpcException) as failure:
            client.call("contacts/nope")
        assert failure.value.code == -32601

        assert client.call("shutdown") is None
        client.endpoint.notify("exit")
        assert client.proc.wait(timeout=TIMEOUT) == 0
        client.listener.join(TIMEOUT)
        assert not client.listener.is_alive()
    finally:
        client.endpoint.shutdown()
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait(timeout=TIMEOUT)
