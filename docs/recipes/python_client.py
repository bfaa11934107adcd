#!/usr/bin/env python3
"""ContactsBook from Python with nothing but the standard library (Content-Length framing).

Try it:  python3 docs/recipes/python_client.py
CONTACTSBOOK_BIN names the executable (default: contactsbook on PATH);
CONTACTSBOOK_DB the book (default: a book that lives only for this run).
For a ready-made client, python-lsp-jsonrpc's Endpoint works as is (see Protocol.md).
"""
import itertools
import json
import os
import subprocess


class ContactsBook:
    def __init__(self):
        self.proc = subprocess.Popen(
            [os.environ.get("CONTACTSBOOK_BIN", "contactsbook"), "--rpc",
             "--db", os.environ.get("CONTACTSBOOK_DB", ":memory:")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.ids = itertools.count(1)

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("contactsbook ended")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def call(self, method, params=None):
        """Sends a request; handles notifications until its response; returns the result
        or raises RuntimeError(code, message, data)."""
        id = next(self.ids)
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            answer = self.receive()
            if "id" not in answer:
                self.on_notification(answer["method"], answer.get("params"))
            elif answer["id"] == id:
                if "error" in answer:
                    error = answer["error"]
                    raise RuntimeError(error["code"], error["message"], error.get("data"))
                return answer["result"]

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def on_notification(self, method, params):
        if method == "session/message":
            print(f"message: {params['kind']}: {params['text']}")
        elif method == "session/stackChanged":
            print("stack: " + " > ".join(scene["scene"] for scene in params["stack"]))


book = ContactsBook()
init = book.call("initialize", {"clientInfo": {"name": "python-recipe"}})
print(f"server: {init['serverInfo']['name']} {init['serverInfo']['version']}, protocol {init['protocolVersion']}")
book.notify("initialized", {})

book.call("contacts/add")
book.call("form/given", {"value": "Ann"})
book.call("form/family", {"value": "Lee"})
book.call("form/email", {"label": "work", "value": "ann@"})
try:
    book.call("form/save")
except RuntimeError as error:
    code, _, data = error.args
    print(f"save refused: {code} {data['details']}")
book.call("form/clear", {"field": "emails"})
book.call("form/email", {"label": "work", "value": "ann@example.org"})
book.call("form/save")

found = book.call("contacts/search", {"text": "lee"})
for row in found["displayed"][0]["value"]["rows"]:
    print(f"found: {row['id']} {row['name']} {row['email']}")
shown = book.call("contacts/show", {"contact": "ann lee"})
print(f"detail: {shown['displayed'][0]['value']['name']}")
book.call("session/back")

book.call("shutdown")
book.notify("exit")
print(f"exit: {book.proc.wait(timeout=10)}")
