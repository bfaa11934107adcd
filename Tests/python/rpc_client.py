"""A small JSON-RPC test client for `contactsbook --rpc`, in either framing.

Reads stdout on a thread into a queue, so every wait has an upper bound (a timeout that only
fires when the server is broken) and no test sleeps. Frames are parsed strictly: anything on
stdout that is not a frame fails the test.
"""
import json
import os
import queue
import subprocess
import threading

TIMEOUT = 20  # seconds; an upper bound only


def isolated_env(tmp_path):
    """Environment for one test: its own HOME and XDG directories."""
    home = tmp_path / "home"
    env = {
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
    }
    for key in ("HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        os.makedirs(env[key], exist_ok=True)
    return env


def binary():
    return os.environ["CONTACTSBOOK_BIN"]


def frame(message, framing):
    """Bytes for one message (a dict, or a str/bytes body sent as is)."""
    if isinstance(message, (dict, list)):
        body = json.dumps(message).encode()
    elif isinstance(message, str):
        body = message.encode()
    else:
        body = message
    if framing == "content-length":
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    return body + b"\n"


def parse_frames(data, framing):
    """Parses a whole stdout as frames; fails if anything is left over or not JSON."""
    messages = []
    rest = data
    while rest:
        if framing == "content-length":
            head, sep, after = rest.partition(b"\r\n\r\n")
            assert sep, f"bytes that are not a frame: {rest[:200]!r}"
            lines = head.split(b"\r\n")
            assert len(lines) == 1 and lines[0].startswith(b"Content-Length: "), f"bad header: {head!r}"
            length = int(lines[0][len(b"Content-Length: "):])
            assert len(after) >= length, f"truncated frame: {after!r}"
            body, rest = after[:length], after[length:]
        else:
            body, sep, rest = rest.partition(b"\n")
            assert sep, f"a last line without a newline: {body[:200]!r}"
        messages.append(json.loads(body))
    return messages


class RpcProcess:
    """`contactsbook --rpc` on pipes, speaking one framing."""

    def __init__(self, tmp_path, framing="content-length", extra_args=(), db=None):
        self.framing = framing
        self.db = db or str(tmp_path / "book.sqlite")
        self.proc = subprocess.Popen(
            [binary(), "--rpc", "--db", self.db, "--create", *extra_args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=isolated_env(tmp_path),
        )
        self.messages = queue.Queue()
        self.raw = bytearray()  # every byte of stdout, for the frames-only check
        self.stderr = bytearray()
        self._next_id = 0
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self._errs = threading.Thread(target=self._read_stderr, daemon=True)
        self._errs.start()

    def _read_stdout(self):
        out = self.proc.stdout
        try:
            while True:
                if self.framing == "content-length":
                    header = b""
                    while not header.endswith(b"\r\n\r\n"):
                        byte = out.read(1)
                        if not byte:
                            assert header == b"", f"stdout ended inside a header: {header!r}"
                            return
                        header += byte
                    self.raw += header
                    length = None
                    for line in header.split(b"\r\n"):
                        if line.lower().startswith(b"content-length:"):
                            length = int(line.split(b":", 1)[1])
                    body = out.read(length)
                    self.raw += body
                else:
                    body = out.readline()
                    if not body:
                        return
                    self.raw += body
                self.messages.put(json.loads(body))
        except Exception as error:  # surfaced to the test through the queue
            self.messages.put(error)
        finally:
            self.messages.put(None)

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr += line

    def send(self, message):
        self.proc.stdin.write(frame(message, self.framing))
        self.proc.stdin.flush()

    def next_message(self):
        message = self.messages.get(timeout=TIMEOUT)
        if isinstance(message, Exception):
            raise message
        assert message is not None, f"stdout closed; stderr: {bytes(self.stderr).decode(errors='replace')}"
        return message

    def request(self, method, params=None, id=None):
        """Sends a request; returns (notifications before the response, the response)."""
        if id is None:
            self._next_id += 1
            id = self._next_id
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.until_response(id)

    def until_response(self, id):
        notifications = []
        while True:
            message = self.next_message()
            if "method" in message and "id" not in message:
                notifications.append(message)
                continue
            assert message.get("id") == id, f"expected the response to {id!r}, got {message}"
            return notifications, message

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def close_and_wait(self):
        """Closes stdin (EOF) and waits for the process; returns its status."""
        self.proc.stdin.close()
        status = self.proc.wait(timeout=TIMEOUT)
        self._reader.join(TIMEOUT)
        self._errs.join(TIMEOUT)
        return status

    def wait(self):
        status = self.proc.wait(timeout=TIMEOUT)
        self._reader.join(TIMEOUT)
        self._errs.join(TIMEOUT)
        return status

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=TIMEOUT)


def run_rpc(tmp_path, data, extra_args=(), db=None):
    """Runs `contactsbook --rpc` on all of `data` at once; returns the CompletedProcess."""
    return subprocess.run(
        [binary(), "--rpc", "--db", db or str(tmp_path / "book.sqlite"), "--create", *extra_args],
        input=data, capture_output=True, env=isolated_env(tmp_path), timeout=TIMEOUT,
    )
