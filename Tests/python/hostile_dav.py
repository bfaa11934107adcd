"""A small hostile CardDAV server for the tests of issue 26, started on 127.0.0.1 and a free port.

It serves one address book well enough for discovery and a sync (PROPFIND, sync-collection,
addressbook-multiget, GET, PUT, DELETE) and can misbehave on demand: list hrefs outside the book
or on another host, redirect discovery or a sync elsewhere, name a home on another host, send
control bytes in names, trickle a sync's answer at 2 bytes a second, truncate (507) its list of
changes for ever, or send an answer that never ends. It records every request (method, path, Host,
Authorization), so a test can tell what reached it and with which credentials."""
import hashlib
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape, unescape

NS = 'xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"'


def etag(text):
    return '"' + hashlib.sha1(text.encode()).hexdigest()[:12] + '"'


def card(uid, name, *lines):
    """A vCard 3.0 with a UID and a full name (and any extra lines)."""
    given, _, family = name.partition(" ")
    return ("BEGIN:VCARD\r\nVERSION:3.0\r\n" + f"UID:{uid}\r\nFN:{name}\r\nN:{family};{given};;;\r\n"
            + "".join(line + "\r\n" for line in lines) + "END:VCARD\r\n")


class HostileDAV:
    """One server. `book_path` is its address book; `cards` maps hrefs to vCards."""

    def __init__(self, book_path="/alice/book/", display_name="Book", host="127.0.0.1"):
        self.book_path = book_path
        self.display_name = display_name
        self.cards = {}
        # href -> vCard: listed in every sync-collection answer and answered in a multiget,
        # though they are no members of the book (the attack of issue 26, item 1).
        self.foreign = {}
        # Location for the first PROPFIND (discovery) or every REPORT (a sync), when set.
        self.redirect_propfind = None
        self.redirect_report = None
        # An addressbook-home-set for the principal, when it is to point elsewhere.
        self.home_set = None
        # Extra address books listed in the home: (path, display name).
        self.more_books = []
        # A DOCTYPE put before every multistatus (entity declarations), and hrefs whose
        # address-data is sent as this raw XML, unescaped (entity references in a card).
        self.doctype = ""
        self.raw_address_data = {}
        # "tail": the multiget answered with the cards asked for, then comments without end.
        # "listing" or "card": the sync-collection REPORT, or the multiget, answered with a 207
        # that never ends (one member listed over and over, each with a long comment after it,
        # or one card's text going on), until
        # the client hangs up or `endless_limit` bytes went out. `endless_sent` counts them;
        # `streaming` is set once the first megabyte went.
        self.endless = None
        self.endless_limit = 1 << 30
        self.endless_sent = 0
        self.streaming = threading.Event()
        # A sync-collection answered at 2 bytes a second (`trickling` is set once it starts), or
        # truncated (507) every time with a fresh token (`truncations` counts the rounds).
        self.trickle_report = False
        self.trickling = threading.Event()
        # Seconds a sync-collection is thought over before its answer starts (an honest server
        # computing a large listing under load), then answered whole.
        self.think_report = 0
        self.truncate_forever = False
        # Multigets answered whole before the next ones trickle (None: none trickles).
        self.trickle_multiget_after = None
        self.multigets = 0
        self.truncations = 0
        self.stopping = threading.Event()
        self.requests = []
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer((host, 0), self._handler())
        self.port = self.server.server_port
        self.base = f"http://{host}:{self.port}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()

    def put(self, href, text):
        self.cards[href] = text

    def seen(self):
        """(method, path, Authorization) of every request so far."""
        with self.lock:
            return [(m, p, a) for m, p, _, a in self.requests]

    # The answers.

    def multistatus(self, responses, token=None):
        token_element = f"<D:sync-token>{escape(token)}</D:sync-token>" if token else ""
        return (f'<?xml version="1.0" encoding="utf-8"?>{self.doctype}<D:multistatus {NS}>{"".join(responses)}'
                f'{token_element}</D:multistatus>')

    @staticmethod
    def response(href, props):
        return (f"<D:response><D:href>{escape(href)}</D:href><D:propstat><D:prop>{props}</D:prop>"
                "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>")

    def book_entry(self, path, name):
        return self.response(path, "<D:resourcetype><D:collection/><C:addressbook/></D:resourcetype>"
                                   f"<D:displayname>{escape(name)}</D:displayname>")

    def members(self):
        listed = dict(self.cards)
        listed.update(self.foreign)
        return [self.response(href, f"<D:getetag>{escape(etag(text))}</D:getetag>") for href, text in listed.items()]

    def propfind(self, path, depth):
        if path == self.book_path:
            entries = [self.book_entry(path, self.display_name)]
            return entries + (self.members() if depth == "1" else [])
        if path in ("/", "/.well-known/carddav", "/alice/"):
            if depth == "1":
                return [self.book_entry(self.book_path, self.display_name)] + [
                    self.book_entry(p, n) for p, n in self.more_books]
            home = self.home_set or "/alice/"
            return [self.response(path, "<D:current-user-principal><D:href>/alice/</D:href></D:current-user-principal>"
                                        f"<C:addressbook-home-set><D:href>{escape(home)}</D:href></C:addressbook-home-set>"
                                        "<D:resourcetype><D:collection/></D:resourcetype>")]
        return None

    def multiget(self, body):
        hrefs = [unescape(h) for h in re.findall(r"<D:href>(.*?)</D:href>", body)]
        known = dict(self.cards)
        known.update(self.foreign)
        entries = []
        for href in hrefs:
            if href in known:
                text = known[href]
                data = self.raw_address_data.get(href, escape(text))
                entries.append(self.response(href, f"<D:getetag>{escape(etag(text))}</D:getetag>"
                                                   f"<C:address-data>{data}</C:address-data>"))
        return entries

    def _handler(self):
        dav = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def record(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                with dav.lock:
                    dav.requests.append((self.command, self.path, self.headers.get("Host"),
                                         self.headers.get("Authorization")))
                return body

            def challenged(self):
                """A request without credentials is recorded and answered 401, as real servers do
                (contactsbook's first request goes without, to learn Basic or Digest)."""
                if self.headers.get("Authorization"):
                    return False
                self.record()
                self.answer(401, headers=[("WWW-Authenticate", 'Basic realm="hostile"')])
                return True

            def answer(self, status, body="", headers=()):
                data = body.encode()
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                if body:
                    self.send_header("Content-Type", "application/xml; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_PROPFIND(self):
                if self.challenged():
                    return
                self.record()
                # Every PROPFIND while it is set, as a server that moved the account answers: a discovery
                # asked again (after a yes to going there) meets it again.
                if dav.redirect_propfind:
                    return self.answer(307, headers=[("Location", dav.redirect_propfind)])
                entries = dav.propfind(self.path, self.headers.get("Depth", "0"))
                if entries is None:
                    return self.answer(404)
                self.answer(207, dav.multistatus(entries, token="t1" if self.path == dav.book_path else None))

            def do_REPORT(self):
                if self.challenged():
                    return
                body = self.record()
                if dav.redirect_report:
                    return self.answer(307, headers=[("Location", dav.redirect_report)])
                if self.path != dav.book_path:
                    return self.answer(404)
                if "sync-collection" in body and dav.think_report:
                    dav.stopping.wait(dav.think_report)
                if "sync-collection" in body and dav.trickle_report:
                    return self.trickle(dav.multistatus(dav.members(), token="t1"))
                if "sync-collection" in body and dav.truncate_forever:
                    with dav.lock:
                        dav.truncations += 1
                        token = f"t{dav.truncations}"
                    truncated = (f"<D:response><D:href>{escape(dav.book_path)}</D:href>"
                                 "<D:status>HTTP/1.1 507 Insufficient Storage</D:status></D:response>")
                    return self.answer(207, dav.multistatus([truncated], token=token))
                if "sync-collection" in body:
                    if dav.endless == "listing":
                        return self.endless(f'<D:multistatus {NS}>',
                                            dav.response(dav.book_path + "x.vcf", '<D:getetag>"1"</D:getetag>')
                                            + "<!--" + " " * 65000 + "-->")
                    return self.answer(207, dav.multistatus(dav.members(), token="t1"))
                if dav.endless == "tail":
                    # The cards asked for, whole, and then no end: a sync killed while it reads.
                    return self.endless(f'<D:multistatus {NS}>' + "".join(dav.multiget(body)),
                                        "<!--" + " " * 65000 + "-->")
                if dav.endless == "card":
                    return self.endless(f'<D:multistatus {NS}><D:response><D:href>{dav.book_path}x.vcf</D:href>'
                                        '<D:propstat><D:prop><D:getetag>"1"</D:getetag><C:address-data>'
                                        'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:X\r\nNOTE:', "x" * 65536)
                with dav.lock:
                    dav.multigets += 1
                    slow = dav.trickle_multiget_after is not None and dav.multigets > dav.trickle_multiget_after
                if slow:
                    return self.trickle(dav.multistatus(dav.multiget(body)))
                self.answer(207, dav.multistatus(dav.multiget(body)))

            def trickle(self, body):
                """The whole answer promised, then 2 bytes a second until the client hangs up."""
                data = body.encode()
                self.send_response(207)
                self.send_header("Content-Type", "application/xml; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.flush()
                dav.trickling.set()
                try:
                    for offset in range(len(data)):
                        if dav.stopping.wait(0.5):
                            return
                        self.wfile.write(data[offset:offset + 1])
                        self.wfile.flush()
                except OSError:  # the client gave up: what this mode is for
                    self.close_connection = True

            def endless(self, head, piece):
                """A 207 with no length, `head` and then `piece` again and again."""
                self.send_response(207)
                self.send_header("Content-Type", "application/xml; charset=utf-8")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                data = piece.encode() * max(1, 65536 // len(piece))
                try:
                    self.wfile.write(head.encode())
                    while dav.endless_sent < dav.endless_limit and not dav.stopping.is_set():
                        self.wfile.write(data)
                        dav.endless_sent += len(data)
                        if dav.endless_sent >= 1 << 20:
                            dav.streaming.set()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_GET(self):
                if self.challenged():
                    return
                self.record()
                text = dav.cards.get(self.path) or dav.foreign.get(self.path)
                if text is None:
                    return self.answer(404)
                data = text.encode()
                self.send_response(200)
                self.send_header("ETag", etag(text))
                self.send_header("Content-Type", "text/vcard")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_PUT(self):
                if self.challenged():
                    return
                text = self.record()
                dav.cards[self.path] = text
                self.answer(201, headers=[("ETag", etag(text))])

            def do_DELETE(self):
                if self.challenged():
                    return
                self.record()
                dav.cards.pop(self.path, None)
                self.answer(204)

            def log_message(self, *args):
                pass

        return Handler
