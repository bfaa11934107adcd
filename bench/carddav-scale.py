#!/usr/bin/env python3
"""A first CardDAV download at several sizes on a server that costs next to nothing (issue 32):
our CPU, wall time and peak memory from 5,000 to 50,000 cards, side by side for several binaries.

    python3 bench/carddav-scale.py BIN [BIN ...] [--cards 5000 50000] [--runs 3] [--out bench/out/carddav-scale] [--json FILE]

Why not Radicale: its first listing of a folder it has never read took 924 s for 20,000 cards on
this host (bench/FINDINGS.md), and it serves one multiget of 500 cards in about 90 ms, so at 50,000
its own time would hide ours. This server (in this process, a thread per request, HTTP/1.0 and a
new connection per request as Radicale) holds the cards of `bench/gen.py N --vdir` in memory and
answers exactly what a sync asks: PROPFIND of the book, `sync-collection` (everything for an empty
token, nothing for the token it gave), `addressbook-multiget`. It checks no password (as the bench's
Radicale, `auth none`). So the wall time here is nearly all ours; what the server's floor is at a
size is `bench/carddav.py`'s business, on Radicale.

Per size and binary, medians of RUNS first downloads into a new book: wall, CPU (user + sys of
the process) and peak RSS (the child's `VmHWM`, sampled until it exits). Also prints how long the same
requests take from Python (`floor`, the server's own cost here), and the cards a second a binary
keeps up. Never fails on speed. `--json FILE` also writes the medians there, for `bench/run`'s report.
"""
import argparse
import json
import http.server
import os
import re
import shutil
import socketserver
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import carddav  # noqa: E402  (the same request helpers as the Radicale bench)

BOOK = "/bench/book/"
TOKEN = "http://example.invalid/ns/sync/1"


class Cards:
    def __init__(self, vdir):
        self.cards = {}
        for name in sorted(os.listdir(vdir)):
            with open(os.path.join(vdir, name), "rb") as f:
                self.cards[BOOK + name] = f.read()
        self.etags = {href: f'"{abs(hash(body)) % 10**12}"' for href, body in self.cards.items()}


def make_handler(cards):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, *args):
            pass

        def answer(self, status, body, content_type="application/xml; charset=utf-8"):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def body(self):
            return self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()

        def do_PROPFIND(self):
            self.body()
            self.answer(207, (
                '<?xml version="1.0" encoding="utf-8"?><multistatus xmlns="DAV:" '
                'xmlns:C="urn:ietf:params:xml:ns:carddav"><response><href>' + BOOK + '</href><propstat><prop>'
                '<resourcetype><collection/><C:addressbook/></resourcetype><displayname>book</displayname>'
                '<current-user-privilege-set><privilege><all/></privilege></current-user-privilege-set>'
                '</prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>').encode())

        def do_REPORT(self):
            request = self.body()
            if "sync-collection" in request:
                token = re.search(r"<[^>]*sync-token>([^<]*)<", request)
                listed = [] if token and token.group(1) == TOKEN else list(cards.cards)
                if "address-data" in request:
                    # The cards in the listing when asked for, as Radicale sends them (sync4).
                    self.answer(207, self.cards(listed, f"<sync-token>{TOKEN}</sync-token>".encode()))
                    return
                parts = ['<?xml version="1.0" encoding="utf-8"?><multistatus xmlns="DAV:">']
                parts += [f"<response><href>{h}</href><propstat><prop><getetag>{cards.etags[h]}</getetag></prop>"
                          "<status>HTTP/1.1 200 OK</status></propstat></response>" for h in listed]
                parts.append(f"<sync-token>{TOKEN}</sync-token></multistatus>")
                self.answer(207, "".join(parts).encode())
                return
            self.answer(207, self.cards(re.findall(r"<[^>]*href>([^<]+)<", request)))

        def cards(self, hrefs, tail=b""):
            parts = [b'<?xml version="1.0" encoding="utf-8"?><multistatus xmlns="DAV:" '
                     b'xmlns:C="urn:ietf:params:xml:ns:carddav">']
            for h in hrefs:
                body = cards.cards[h].replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b">", b"&gt;")
                parts.append(f"<response><href>{h}</href><propstat><prop><getetag>{cards.etags[h]}</getetag>"
                             "<C:address-data>".encode() + body
                             + b"</C:address-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>")
            parts.append(tail + b"</multistatus>")
            return b"".join(parts)

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def first_download(binary, base, db):
    """(wall s, CPU s, peak RSS MiB) of `binary sync` into a new book at `db`."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    carddav.run(binary, "account", "add", "bench", base, "--user", "bench", "--password-command", "echo bench",
                "--db", db, "--create")
    start = time.perf_counter()
    process = subprocess.Popen([binary, "sync", "--db", db], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # The peak is the child's own high-water mark (`VmHWM`, read until it exits), not `ru_maxrss`:
    # a child's `ru_maxrss` starts at its parent's size when it was spawned, and this process
    # holding 50,000 cards and their answers is larger than the sync (171 MiB for either build at
    # 50,000, where /usr/bin/time saw 67; bench/FINDINGS.md, sync5). A peak in the last 10 ms is missed.
    peak = 0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        try:
            with open(f"/proc/{process.pid}/status") as f:
                peak = max([peak] + [int(line.split()[1]) for line in f if line.startswith("VmHWM:")])
        except (FileNotFoundError, ProcessLookupError):
            pass
        time.sleep(0.01)
    wall = time.perf_counter() - start
    out = process.stdout.read().decode() + process.stderr.read().decode()
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, out
    return wall, usage.ru_utime + usage.ru_stime, peak / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--cards", type=int, nargs="+", default=[5000, 50000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(HERE, "out", "carddav-scale"))
    parser.add_argument("--json", help="also write the medians to this file (bench/run's report reads it)")
    options = parser.parse_args()
    out = os.path.abspath(options.out)
    os.makedirs(out, exist_ok=True)
    print(f"First CardDAV download on a server in memory (HTTP/1.0, no auth), {options.runs} runs each, medians")
    for b, binary in enumerate(options.binaries):
        print(f"  [{b}] {binary}")
    print(f"{'cards':>7} {'floor s':>8} " + " ".join(f"{f'[{b}] wall s':>11} {'CPU s':>6} {'RSS MiB':>8} {'cards/CPU s':>11}"
                                                   for b in range(len(options.binaries))))
    peaks = {}  # (cards, binary) → median peak RSS, for the growth line at the end
    summary = {}  # --json: per size, the floor's median and each binary's
    for n in options.cards:
        vdir = os.path.join(out, f"vdir-{n}")
        if not os.path.isdir(vdir):
            subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), str(n), out, "--vdir"], check=True,
                           stdout=subprocess.DEVNULL)
        server = Server(("127.0.0.1", 0), make_handler(Cards(vdir)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            floor, results = [], {b: [] for b in range(len(options.binaries))}
            for round_ in range(options.runs):
                def floor_run():
                    hrefs, _ = carddav.sync_collection(base + BOOK[1:])
                    for i in range(0, len(hrefs), 500):
                        carddav.multiget(base + BOOK[1:], hrefs[i:i + 500])
                floor.append(carddav.timed(floor_run))
                for b, binary in enumerate(options.binaries):
                    db = os.path.join(out, f"book-{n}-{b}.sqlite")
                    results[b].append(first_download(binary, base, db))
                    count = sqlite3.connect(db).execute("SELECT n FROM contact_count").fetchone()[0]
                    assert count == n, count
            median = statistics.median
            line = f"{n:>7} {median(floor):>8.3f} "
            for b in range(len(options.binaries)):
                wall, cpu, rss = (median(r[i] for r in results[b]) for i in range(3))
                peaks[n, b] = rss
                summary.setdefault(str(n), {"floor": median(floor), "binaries": []})["binaries"].append(
                    {"wall": wall, "cpu": cpu, "rss": rss})
                line += f"{wall:>11.3f} {cpu:>6.2f} {rss:>8.1f} {n / cpu:>11.0f} "
            print(line, flush=True)
        finally:
            server.shutdown()
            server.server_close()
    # Issue 32: peak memory flat with the book's size (the first download streams; its state is
    # bounded). The line to watch: a few MiB is noise, tens of MiB is something held per card.
    if len(options.cards) > 1:
        low, high = min(options.cards), max(options.cards)
        print(f"peak RSS growth {low} → {high} cards: "
              + ", ".join(f"[{b}] {peaks[high, b] - peaks[low, b]:+.1f} MiB" for b in range(len(options.binaries))))
    if options.json:
        with open(options.json, "w") as f:
            json.dump({"runs": options.runs, "load": os.getloadavg()[0], "sizes": summary}, f, indent=1)


if __name__ == "__main__":
    main()
