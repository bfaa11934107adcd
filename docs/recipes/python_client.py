#!/usr/bin/env python3
"""ContactsBook from Python with nothing but the standard library (Content-Length framing).

Try it:  python3 docs/recipes/python_client.py
CONTACTSBOOK_BIN names the executable (default: contactsbook on PATH);
CONTACTSBOOK_DB a book to use (it must exist); by default a temporary book, removed at the end.
The recipe takes back the contact it adds (contacts/undo of its own change), so a book it is
given is left as it was. Any failure ends it with status 1 and a message on stderr; no answer
within 30 seconds is a failure too.
For a ready-made client, python-lsp-jsonrpc's Endpoint works as is (see Protocol.md).
"""
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile


class ContactsBook:
    def __init__(self, db, create):
        self.proc = subprocess.Popen(
            [os.environ.get("CONTACTSBOOK_BIN", "contactsbook"), "--rpc", "--db", db] + (["--create"] if create else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
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
                raise EOFError("contactsbook ended: " + self.proc.stderr.read().decode().strip())
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



def main(db, create):
    book = ContactsBook(db, create)
    try:
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
        saved = book.call("form/save")
        contact = saved["displayed"][1]["value"]["row"]["id"]

        found = book.call("contacts/search", {"text": "lee"})
        for row in found["displayed"][0]["value"]["rows"]:
            if row["id"] == contact:
                print(f"found: {row['name']} {row['email']}")
        shown = book.call("contacts/show", {"contact": contact})
        print(f"detail: {shown['displayed'][0]['value']['name']}")
        # Take back this recipe's own change (its number in the contact's history).
        history = book.call("contacts/history", {"contact": contact})
        book.call("contacts/undo", {"change": history["displayed"][0]["value"]["changes"][0]["id"]})

        book.call("shutdown")
        book.notify("exit")
        print(f"exit: {book.proc.wait(timeout=10)}")
    finally:
        if book.proc.poll() is None:
            book.proc.kill()
            book.proc.wait()


def timed_out(_signal, _frame):
    raise TimeoutError("no answer from contactsbook within 30 seconds")


if __name__ == "__main__":
    signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(30)
    given = os.environ.get("CONTACTSBOOK_DB")
    try:
        if given:
            if not os.path.exists(given):
                raise FileNotFoundError(f"there is no book at {given} (CONTACTSBOOK_DB)")
            main(given, create=False)
        else:
            with tempfile.TemporaryDirectory() as folder:
                main(os.path.join(folder, "book.sqlite"), create=True)
    except Exception as failure:  # a recipe says what went wrong and ends, whatever it was
        sys.stderr.write(f"recipe failed: {failure}\n")
        sys.exit(1)
