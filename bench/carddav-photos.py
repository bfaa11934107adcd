#!/usr/bin/env python3
"""A first sync of a book of cards with photos from Radicale (issue 26, items 5 and 6).

    python3 bench/carddav-photos.py BIN [--cards 20000] [--photo 25000] [--runs 1] [--out bench/out/photos]

Fills a Radicale address book (auth none, 127.0.0.1) with `--cards` cards of `bench/gen.py`,
each given a PHOTO of `--photo` random bytes (base64), written into Radicale's storage folder
(that many PUTs would take hours: the server's cost, not ours), warms Radicale's cache with one
listing, then per round times:

- the server's floor: one `sync-collection` from scratch and `addressbook-multiget`s of 500 hrefs
  (our batch), each answer read whole by Python and thrown away;
- `BIN sync` into an empty book: wall time, CPU (user + sys) and peak RSS of that process alone
  (wait4), and the number of contacts it saved.

Before issue 26's streaming reader, every multiget answer of 500 such cards (about 17 MB) was over
libxml2's 10,000,000-byte limit and the sync failed; the script says so when it does. Never
fails on speed.
"""
import argparse
import base64
import os
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(method, url, body, depth="1"):
    req = urllib.request.Request(url, data=body, method=method, headers={
        "Depth": depth, "Content-Type": "application/xml; charset=utf-8"})
    with urllib.request.urlopen(req, timeout=3600) as response:
        return response.read()


def floor(book):
    """The server's own time for what a first sync asks: the listing, then multigets of 500."""
    start = time.perf_counter()
    listing = request("REPORT", book, b'<sync-collection xmlns="DAV:"><sync-token></sync-token><sync-level>1'
                                      b'</sync-level><prop><getetag/></prop></sync-collection>').decode()
    hrefs = re.findall(r"<href>([^<]+\.vcf)</href>", listing)
    received = 0
    for first in range(0, len(hrefs), 500):
        body = ('<C:addressbook-multiget xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><prop><getetag/>'
                '<C:address-data/></prop>' + "".join(f"<href>{h}</href>" for h in hrefs[first:first + 500])
                + "</C:addressbook-multiget>").encode()
        received += len(request("REPORT", book, body))
    return time.perf_counter() - start, len(hrefs), received


def measured(args):
    """(returncode, stdout + stderr, wall s, CPU s, peak RSS MB) of one process, by wait4."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    return (os.waitstatus_to_exitcode(status), output, wall, usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 1024)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--cards", type=int, default=20000)
    parser.add_argument("--photo", type=int, default=25000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(HERE, "out", "photos"))
    options = parser.parse_args()
    out = os.path.abspath(options.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), str(options.cards), out, "--vdir"], check=True,
                   stdout=subprocess.DEVNULL)
    storage = os.path.join(out, "radicale")
    book_dir = os.path.join(storage, "collection-root", "bench", "book")
    os.makedirs(book_dir)
    with open(os.path.join(book_dir, ".Radicale.props"), "w") as props:
        props.write('{"tag": "VADDRESSBOOK"}')
    vdir = os.path.join(out, f"vdir-{options.cards}")
    rng = random.Random(26)
    total = 0
    for name in sorted(os.listdir(vdir)):
        with open(os.path.join(vdir, name), newline="") as card:
            text = card.read()
        photo = base64.b64encode(rng.randbytes(options.photo)).decode()
        # Folded at 75 octets, as exporters write it.
        line = "PHOTO;ENCODING=b;TYPE=JPEG:" + photo
        folded = "\r\n ".join(line[i:i + 74] for i in range(0, len(line), 74))
        text = text.replace("END:VCARD", folded + "\r\nEND:VCARD")
        total += len(text)
        with open(os.path.join(book_dir, name), "w", newline="") as card:
            card.write(text)
    shutil.rmtree(vdir)
    port = free_port()
    config = os.path.join(out, "radicale.conf")
    with open(config, "w") as f:
        f.write(f"[server]\nhosts = 127.0.0.1:{port}\n[auth]\ntype = none\n[rights]\ntype = authenticated\n"
                f"[storage]\nfilesystem_folder = {storage}\n[logging]\nlevel = warning\n")
    server = subprocess.Popen([sys.executable, "-m", "radicale", "--config", config],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    book = base + "bench/book/"
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        # Warms Radicale's item cache, as a server in use has it.
        warm, listed, _ = floor(book)
        assert listed == options.cards, listed
        print(f"{options.cards} cards, {total / options.cards / 1000:.1f} kB each, {total / 1e6:.0f} MB in all; "
              f"warming took {warm:.1f} s", flush=True)
        floors, walls, cpus, peaks = [], [], [], []
        for round_ in range(options.runs):
            seconds, _, received = floor(book)
            floors.append(seconds)
            db = os.path.join(out, f"book-{round_}.sqlite")
            subprocess.run([options.binary, "account", "add", "bench", base, "--user", "bench", "--password-command",
                            "echo bench", "--db", db, "--create"], check=True, capture_output=True)
            code, said, wall, cpu, peak = measured([options.binary, "sync", "--db", db])
            count = sqlite3.connect(db).execute("SELECT n FROM contact_count").fetchone()[0]
            print(f"round {round_ + 1}: floor {seconds:.1f} s ({received / 1e6:.0f} MB received); sync exit {code}, "
                  f"{wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {peak:.0f} MB, {count} contacts: {said.strip()[:300]}",
                  flush=True)
            walls.append(wall); cpus.append(cpu); peaks.append(peak)
            os.remove(db)
        print(f"medians of {options.runs}: floor {statistics.median(floors):.1f} s; sync {statistics.median(walls):.1f} s "
              f"wall ({statistics.median(walls) / statistics.median(floors):.2f}x the floor), "
              f"{statistics.median(cpus):.1f} s CPU, peak RSS {statistics.median(peaks):.0f} MB")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
