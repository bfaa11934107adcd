"""Real CardDAV servers for the sync tests: Radicale (with a password), Xandikos (without) and
SabreDAV (Debian's php-sabre-dav 1.8 under `php -S`, with Basic or Digest: `sabredav`,
`sabredav-digest`), each started on 127.0.0.1 and a free port in its own directory, and a small
raw-HTTP client to change the server's side behind our back, as a phone would."""
import base64
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

USER, PASSWORD = "alice", "secret"
SABREDAV_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sabredav", "server.php")


def sabredav_missing():
    """Why SabreDAV cannot run here (scripts/setup installs it), or None."""
    if not shutil.which("php"):
        return "php-cli is not installed (scripts/setup installs php-cli, php-sqlite3, php-sabre-dav)"
    probe = subprocess.run(["php", "-r", "require 'Sabre/autoload.php'; new PDO('sqlite::memory:');"],
                           capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        return "php-sabre-dav or php-sqlite3 is not installed: " + (probe.stdout + probe.stderr).strip()[:200]
    return None
MKCOL = (b'<mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><set><prop><resourcetype>'
         b'<collection/><C:addressbook/></resourcetype></prop></set></mkcol>')


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start listening")


class Server:
    """One running server: its base URL, its address book's URL and raw requests to it. `books`
    names more address books of alice's beside the first (`book`), made at start."""

    def __init__(self, kind, tmp_path, books=(), radicale_timeout=None, unsynced=False):
        self.kind = kind
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        root = tmp_path / kind
        root.mkdir()
        self.log = open(root / "server.log", "w")
        if kind == "radicale":
            (root / "users").write_text(f"{USER}:{PASSWORD}\n")
            # `radicale_timeout`: Radicale's `[server] timeout`, which bounds each socket call (a
            # whole `sendall` of an answer); 30 s unless set.
            timeout = "" if radicale_timeout is None else f"timeout = {radicale_timeout}\n"
            (root / "config").write_text(
                f"[server]\nhosts = 127.0.0.1:{self.port}\n{timeout}[auth]\ntype = htpasswd\n"
                f"htpasswd_filename = {root / 'users'}\nhtpasswd_encryption = plain\n"
                f"[rights]\ntype = owner_only\n[storage]\nfilesystem_folder = {root / 'collections'}\n")
            # `unsynced`: Radicale's files not synced to disk (radicale_unsynced.py), for large books.
            launcher = ([os.path.join(os.path.dirname(os.path.abspath(__file__)), "radicale_unsynced.py")] if unsynced
                        else ["-m", "radicale"])
            command = [sys.executable, *launcher, "--config", str(root / "config")]
            self.auth = (USER, PASSWORD)
            self.book = f"{self.base}{USER}/book/"
        elif kind.startswith("sabredav"):
            # One request a line in requests.log: method, path, Authorization scheme, status.
            self.requests_log = root / "requests.log"
            self.read_only_file = root / "readonly"
            env = dict(os.environ, SABRE_DB=str(root / "db.sqlite"), SABRE_LOG=str(self.requests_log),
                       SABRE_AUTH="digest" if kind == "sabredav-digest" else "basic", SABRE_BOOKS=",".join(books),
                       SABRE_READONLY=str(self.read_only_file))
            command = ["php", "-S", f"127.0.0.1:{self.port}", SABREDAV_SCRIPT]
            self.auth = (USER, PASSWORD)
            self.book = f"{self.base}addressbooks/{USER}/default/"
        else:
            command = [sys.executable, "-m", "xandikos", "serve", "--defaults", "-d", str(root / "data"),
                       "-l", "127.0.0.1", "-p", str(self.port)]
            self.auth = None
            self.book = f"{self.base}user/contacts/addressbook/"
        self.digest = kind == "sabredav-digest"
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, cwd=root,
                                        env=env if kind.startswith("sabredav") else None)
        wait_for_port(self.port, self.process)
        if kind == "radicale":
            status, _, _ = self.request("MKCOL", self.book, MKCOL)
            assert status == 201, status
        if not kind.startswith("sabredav"):
            for name in books:
                status, _, _ = self.request("MKCOL", self.book_url(name), MKCOL)
                assert status == 201, status

    @property
    def first_book(self):
        """The name our account gives the first book (its URL's last segment)."""
        return self.book.rstrip("/").rsplit("/", 1)[1]

    def book_url(self, name):
        return self.book.rstrip("/").rsplit("/", 1)[0] + f"/{name}/"

    def set_read_only(self, *names):
        """SabreDAV: the books whose ACL grants alice read alone (RFC 3744), from the next request on."""
        self.read_only_file.write_text("".join(name + "\n" for name in names))

    def in_book(self, name, method="names"):
        """`names()` or `cards()` of another of alice's books."""
        saved, self.book = self.book, self.book_url(name)
        try:
            return getattr(self, method)()
        finally:
            self.book = saved

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                # Radicale can sit in its shutdown waiting on a worker thread on a loaded machine (seen
                # once in CI); the test is over, so the server need not leave politely.
                self.process.kill()
                self.process.wait()
        self.log.close()

    @property
    def password_command(self):
        return f"echo {PASSWORD}" if self.auth else None

    def request(self, method, url, body=None, headers=None, timeout=10):
        headers = dict(headers or {})
        if body is not None:
            headers.setdefault("Content-Type", "application/xml; charset=utf-8")
        request = urllib.request.Request(url, data=body, method=method, headers=headers)
        opener = urllib.request.build_opener()
        if self.digest:
            passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            passwords.add_password(None, self.base, *self.auth)
            opener = urllib.request.build_opener(urllib.request.HTTPDigestAuthHandler(passwords))
        elif self.auth:
            token = base64.b64encode(f"{self.auth[0]}:{self.auth[1]}".encode()).decode()
            request.add_header("Authorization", f"Basic {token}")
        try:
            with opener.open(request, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def put(self, name, vcard, etag=None):
        headers = {"Content-Type": "text/vcard; charset=utf-8"}
        headers["If-Match" if etag else "If-None-Match"] = etag or "*"
        status, _, _ = self.request("PUT", self.book + name, vcard.encode(), headers)
        assert status in (201, 204), status

    def get(self, name):
        status, headers, body = self.request("GET", self.book + name)
        return (body.decode(), headers.get("ETag") or headers.get("Etag")) if status == 200 else (None, None)

    def delete(self, name):
        status, _, _ = self.request("DELETE", self.book + name)
        assert status in (200, 204), status

    def names(self):
        body = b'<propfind xmlns="DAV:"><prop><getetag/></prop></propfind>'
        _, _, answer = self.request("PROPFIND", self.book, body, {"Depth": "1"})
        hrefs = re.findall(r"<(?:\w+:)?href>([^<]+)</(?:\w+:)?href>", answer.decode())
        return sorted(h.rsplit("/", 1)[1] for h in hrefs if not h.endswith("/"))

    def requests(self):
        """SabreDAV's log of the requests it answered: (method, path, auth scheme, status)."""
        lines = self.requests_log.read_text().splitlines() if self.requests_log.exists() else []
        return [tuple(line.split(" ")[:3]) + (int(line.split(" ")[3]),) for line in lines]

    def sync_token(self):
        body = (b'<sync-collection xmlns="DAV:"><sync-token/><sync-level>1</sync-level>'
                b'<prop><getetag/></prop></sync-collection>')
        _, _, answer = self.request("REPORT", self.book, body, {"Depth": "1"})
        return re.search(r"<(?:\w+:)?sync-token>([^<]+)<", answer.decode()).group(1)

    def cards(self):
        return {name: self.get(name)[0] for name in self.names()}


def vcard(uid, given, family, *lines):
    body = "".join(line + "\r\n" for line in lines)
    return (f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:{uid}\r\nFN:{given} {family}\r\nN:{family};{given};;;\r\n"
            f"{body}END:VCARD\r\n")
