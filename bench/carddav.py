#!/usr/bin/env python3
"""CardDAV sync speed, side by side on one Radicale and the same cards (issue 15).

    python3 bench/carddav.py BIN [BIN ...] [--cards 5000] [--runs 3] [--push 20] [--noop-repeats 5] [--out bench/out/carddav] [--reuse] [--first-only] [--server-timeout S] [--json FILE]

(`--reuse`: start from the Radicale storage a last run left in OUT, its item cache warm, instead of
writing the cards again; the cards edited by its pushes stay edited.)

Starts Radicale (auth none) on 127.0.0.1 and a free port, fills an address book with the cards
of `bench/gen.py N --vdir` (written into Radicale's storage folder: 5,000 PUTs take minutes, the
server's cost, not ours), then times, each round in turn so all share the same minutes:

- first download: the server's floor (one `sync-collection` with an empty token, then one
  `addressbook-multiget` of every href, in Python) against `BIN sync` into an empty book; also
  printed beside it, the same cards in one request (the `sync-collection` asking for
  `address-data`, what a first sync asks since branch `sync4`), and the ratios to that;
- a sync with nothing to do: one `sync-collection` with the token (the floor) against `BIN sync`
  on the synced book, `--noop-repeats` interleaved samples of each a round;
- pushing changes: a plain sequential loop of If-Match PUTs of edited cards (the floor) against
  `BIN sync` after editing as many contacts (`--push`; each side edits its own cards).

With several binaries (the previous build and this one), each round times the floor and then
every binary in turn, so all share the same minutes. Prints medians, ratios to the floor, and
each binary's CPU time (user + sys, medians; the loaded host's wall time swings more); never
fails on speed. `--json FILE` also writes those medians there, for `bench/run`'s report.
"""
import json
import argparse
import os
import re
import resource
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


def request(method, url, body=None, headers=None):
    headers = dict(headers or {})
    headers["Authorization"] = "Basic YmVuY2g6YmVuY2g="  # bench:bench, as our side sends
    if body is not None:
        headers.setdefault("Content-Type", "application/xml; charset=utf-8")
    req = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=900) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def sync_collection(book, token=""):
    body = (f'<sync-collection xmlns="DAV:"><sync-token>{token}</sync-token><sync-level>1</sync-level>'
            f'<prop><getetag/></prop></sync-collection>').encode()
    status, _, answer = request("REPORT", book, body, {"Depth": "1"})
    assert status == 207, status
    text = answer.decode()
    return re.findall(r"<href>([^<]+\.vcf)</href>", text), re.search(r"<sync-token>([^<]+)<", text).group(1)


def listing_with_cards(book):
    """One `sync-collection` from scratch asking for `address-data` too: a first download in one request."""
    body = ('<sync-collection xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><sync-token></sync-token>'
            '<sync-level>1</sync-level><prop><getetag/><C:address-data/></prop></sync-collection>').encode()
    status, _, answer = request("REPORT", book, body, {"Depth": "1"})
    assert status == 207, status
    return answer


def multiget(book, hrefs):
    body = ('<C:addressbook-multiget xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><prop><getetag/>'
            '<C:address-data/></prop>' + "".join(f"<href>{h}</href>" for h in hrefs)
            + "</C:addressbook-multiget>").encode()
    status, _, answer = request("REPORT", book, body, {"Depth": "1"})
    assert status == 207, status
    return answer


def timed(action):
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def run(binary, *args):
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(binary, *args):
    """(wall seconds, CPU seconds of the process, stdout)."""
    cpu = children_cpu()
    start = time.perf_counter()
    out = run(binary, *args)
    return time.perf_counter() - start, children_cpu() - cpu, out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--cards", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--push", type=int, default=20)
    parser.add_argument("--noop-repeats", type=int, default=5,
                        help="samples of the sync with nothing to do in each round, interleaved (default 5)")
    parser.add_argument("--out", default=os.path.join(HERE, "out", "carddav"))
    # Radicale's first listing of a folder it never read took minutes on a loaded host: a second
    # run may start from the storage (and item cache) the last one left, cards edited as it left them.
    parser.add_argument("--reuse", action="store_true", help="keep OUT's Radicale storage if it has the book")
    # At 50,000 cards each of Radicale's listings takes minutes on a loaded host: time the first
    # download alone (issue 32's 50k goal), more rounds in the same time.
    parser.add_argument("--first-only", action="store_true", help="time the first download only")
    # Radicale's `[server] timeout` (30 s) bounds the whole sending of one answer; a first
    # download reads its one answer at the pace it saves the cards, which at 50,000 on a loaded
    # host took longer, and Radicale closed the connection half way (bench/FINDINGS.md, sync5).
    parser.add_argument("--server-timeout", type=int, help="Radicale's [server] timeout, seconds (default: its own)")
    parser.add_argument("--json", help="also write the medians to this file (bench/run's report reads it)")
    options = parser.parse_args()
    out = os.path.abspath(options.out)
    storage = os.path.join(out, "radicale")
    book_dir = os.path.join(storage, "collection-root", "bench", "book")
    reused = options.reuse and os.path.isdir(book_dir)
    if not reused:
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), str(options.cards), out, "--vdir"], check=True,
                       stdout=subprocess.DEVNULL)
        os.makedirs(book_dir)
        with open(os.path.join(book_dir, ".Radicale.props"), "w") as props:
            props.write('{"tag": "VADDRESSBOOK"}')
        vdir = os.path.join(out, f"vdir-{options.cards}")
        for name in sorted(os.listdir(vdir)):
            shutil.copy(os.path.join(vdir, name), os.path.join(book_dir, name))

    if reused:
        for name in os.listdir(out):
            if name.startswith("book-") and ".sqlite" in name:
                os.remove(os.path.join(out, name))
    port = free_port()
    config = os.path.join(out, "radicale.conf")
    with open(config, "w") as f:
        timeout = f"timeout = {options.server_timeout}\n" if options.server_timeout else ""
        f.write(f"[server]\nhosts = 127.0.0.1:{port}\n{timeout}[auth]\ntype = none\n[rights]\ntype = authenticated\n"
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
        # Warms Radicale's item cache, as a server in use has it (the first listing of a folder it
        # has never read costs it minutes on a loaded machine).
        hrefs, _ = sync_collection(book)
        assert len(hrefs) == options.cards, len(hrefs)

        binaries = options.binaries
        keys = ["first"] if options.first_only else ["first", "noop", "push"]
        floor = {key: [] for key in keys}
        in_listing = []
        ours = {(key, b): [] for key in keys for b in range(len(binaries))}
        cpu = {(key, b): [] for key in keys for b in range(len(binaries))}
        ordered = sorted(hrefs)
        for round_ in range(options.runs):
            # First download: the floor, then each binary into an empty book.
            floor["first"].append(timed(lambda: multiget(book, sync_collection(book)[0])))
            # The same in one request (the cards in the listing), what a first sync asks since sync4.
            in_listing.append(timed(lambda: listing_with_cards(book)))
            dbs = []
            for b, binary in enumerate(binaries):
                db = os.path.join(out, f"book-{round_}-{b}.sqlite")
                dbs.append(db)
                run(binary, "account", "add", "bench", base, "--user", "bench", "--password-command", "echo bench",
                    "--db", db, "--create")
                wall, used, _ = timed_run(binary, "sync", "--db", db)
                ours["first", b].append(wall); cpu["first", b].append(used)
                count = sqlite3.connect(db).execute("SELECT n FROM contact_count").fetchone()[0]
                assert count == options.cards, count
            if options.first_only:
                continue
            # Nothing to do. Radicale's answer to the one REPORT is most of both sides' time and
            # swings 0.5-1.0 s from one request to the next on a busy host, so each round takes
            # several interleaved samples of this cheap step (three rounds alone decided nothing).
            _, token = sync_collection(book)
            for _ in range(options.noop_repeats):
                floor["noop"].append(timed(lambda: sync_collection(book, token)))
                for b, binary in enumerate(binaries):
                    wall, used, _ = timed_run(binary, "sync", "--db", dbs[b])
                    ours["noop", b].append(wall); cpu["noop", b].append(used)
            # Pushing changes: the floor edits its own N cards, each binary the next N, so no
            # side pulls another's edits.
            floor_cards = []
            for href in ordered[: options.push]:
                status, headers, body = request("GET", base.rstrip("/") + href)
                etag = headers.get("ETag") or headers.get("Etag")
                text = body.decode().replace("END:VCARD", f"NOTE:floor edit {round_}\r\nEND:VCARD")
                floor_cards.append((href, etag, text))

            def floor_push():
                for href, etag, text in floor_cards:
                    status, _, _ = request("PUT", base.rstrip("/") + href, text.encode(),
                                           {"Content-Type": "text/vcard", "If-Match": etag})
                    assert status in (201, 204), status
            floor["push"].append(timed(floor_push))
            for b, binary in enumerate(binaries):
                db = dbs[b]
                # Brings this book up to date first (untimed): the other sides' edits come down here.
                run(binary, "sync", "--db", db)
                first = options.push * (b + 1)
                mine = set(ordered[first: first + options.push])
                with sqlite3.connect(db) as connection:
                    ids = [row[0] for row in connection.execute("SELECT contact_id, href FROM sync_item")
                           if row[1] in mine]
                assert len(ids) == options.push, len(ids)
                # Edited through the product, then pushed by the timed sync.
                commands = "".join(f"show #{i}\nedit\nnotes our edit {round_}\nsave\nback\n" for i in ids)
                result = subprocess.run([binary, "--db", db], input=commands, capture_output=True, text=True)
                assert result.returncode == 0, result.stderr
                wall, used, pushed = timed_run(binary, "sync", "--db", db)
                assert f"pushed {options.push}," in pushed, pushed
                ours["push", b].append(wall); cpu["push", b].append(used)

        median = statistics.median
        print(f"CardDAV sync, {options.cards} cards, Radicale on loopback, {options.runs} rounds "
              f"({options.noop_repeats} no-op samples each; medians), "
              f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")
        for b, binary in enumerate(binaries):
            print(f"  [{b}] {binary}")
        header = f"{'what':<26}{'floor s':>9}" + "".join(f"{f'[{b}] s':>9}{'ratio':>7}{'cpu s':>7}"
                                                          for b in range(len(binaries)))
        print(header)
        names = {"first": "first download", "noop": "sync with nothing to do", "push": f"push {options.push} edits"}
        for key in keys:
            f = median(floor[key])
            line = f"{names[key]:<26}{f:>9.3f}"
            for b in range(len(binaries)):
                o = median(ours[key, b])
                line += f"{o:>9.3f}{o / f:>7.2f}{median(cpu[key, b]):>7.2f}"
            print(line)
            if key == "first":
                f = median(in_listing)
                print(f"{'… one listing with cards':<26}{f:>9.3f}"
                      + "".join(f"{median(ours[key, b]):>9.3f}{median(ours[key, b]) / f:>7.2f}{'':>7}"
                                for b in range(len(binaries))))
        if options.json:
            summary = {"cards": options.cards, "runs": options.runs, "push": options.push,
                       "noop_repeats": options.noop_repeats,
                       "load": os.getloadavg()[0], "in_listing": median(in_listing), "rows": {}}
            for key in keys:
                summary["rows"][key] = {"floor": median(floor[key]),
                                        "ours": [median(ours[key, b]) for b in range(len(binaries))],
                                        "cpu": [median(cpu[key, b]) for b in range(len(binaries))]}
            with open(options.json, "w") as f:
                json.dump(summary, f, indent=1)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
