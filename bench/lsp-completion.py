#!/usr/bin/env python3
"""Completion latency of `contactsbook --lsp` for a 3-letter prefix, side by side with
`contactsbook query` for the same text, at several book sizes.

    lsp-completion.py BIN OUTDIR [SIZE ...] [--requests N] > table.md

For each size, `bench/gen.py SIZE OUTDIR` makes the cards once and BIN imports them once into
OUTDIR/lsp-book-SIZE.sqlite. Then:

- LSP: one server process; a draft `To: PREFIX` opened (its diagnostics read, untimed), then N
  `textDocument/completion` requests at the end of the prefix, each timed from the first byte
  written to the last byte of its response read (Content-Length framing, the frame round trip
  included), one at a time as an editor sends them.
- query: `BIN --db BOOK query PREFIX`, the whole process, as mutt runs it per lookup.

Prints p50 and p99 in milliseconds, and how many items the completion held.
"""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

PREFIXES = ["jos", "mar", "ann", "wei", "ole"]
URI = "file:///bench/draft.eml"


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def book(bin_path, out, size):
    path = os.path.join(out, f"lsp-book-{size}.sqlite")
    if os.path.exists(path):
        return path
    cards = os.path.join(out, f"cards-{size}.vcf")
    if not os.path.exists(cards):
        subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "gen.py"), str(size), out], check=True)
    started = time.perf_counter()
    subprocess.run([bin_path, "--db", path, "import", cards, "--create"], check=True, stdout=subprocess.DEVNULL)
    print(f"<!-- imported {size} cards in {time.perf_counter() - started:.0f} s -->", flush=True)
    return path


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def lsp_latencies(bin_path, db, requests):
    """Seconds per completion round trip, and the items of each prefix's answer."""
    p = subprocess.Popen([bin_path, "--lsp", "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, bufsize=0)
    reader = bench.FrameReader(p.stdout.fileno(), "Content-Length")
    out = p.stdin.fileno()
    os.write(out, frame({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}))
    reader.read_response(0)
    os.write(out, frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    os.write(out, frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": URI, "languageId": "mail", "version": 0, "text": "To: \n\n"}}}))
    reader.read_response(None)  # its diagnostics
    times, items, next_id = [], {}, 1
    for version, prefix in enumerate(PREFIXES, start=1):
        os.write(out, frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": f"To: {prefix}\n\n"}]}}))
        reader.read_response(None)
        for _ in range(requests):
            request = frame({"jsonrpc": "2.0", "id": next_id, "method": "textDocument/completion", "params": {
                "textDocument": {"uri": URI}, "position": {"line": 0, "character": 4 + len(prefix)}}})
            started = time.perf_counter()
            os.write(out, request)
            body = reader.read_response(next_id)
            times.append(time.perf_counter() - started)
            next_id += 1
        items[prefix] = len(json.loads(body)["result"]["items"])
    os.write(out, frame({"jsonrpc": "2.0", "id": next_id, "method": "shutdown"}))
    reader.read_response(next_id)
    os.write(out, frame({"jsonrpc": "2.0", "method": "exit"}))
    p.wait(timeout=60)
    return times, items


def query_latencies(bin_path, db, runs):
    times = []
    for _ in range(runs):
        for prefix in PREFIXES:
            started = time.perf_counter()
            subprocess.run([bin_path, "--db", db, "query", prefix], stdout=subprocess.DEVNULL, check=False)
            times.append(time.perf_counter() - started)
    return times


def main():
    args = sys.argv[1:]
    requests = 200
    if "--requests" in args:
        at = args.index("--requests")
        requests = int(args[at + 1])
        del args[at:at + 2]
    bin_path, out, sizes = args[0], args[1], [int(s) for s in args[2:]] or [10_000, 100_000]
    os.makedirs(out, exist_ok=True)
    print("| book | `--lsp` completion p50 | p99 | `query` p50 | p99 | items per prefix |")
    print("|---|---|---|---|---|---|")
    for size in sizes:
        db = book(bin_path, out, size)
        lsp, items = lsp_latencies(bin_path, db, requests)
        query = query_latencies(bin_path, db, max(4, requests // 20))
        ms = lambda s: f"{s * 1000:.2f} ms"  # noqa: E731
        print(f"| {size:,} | {ms(statistics.median(lsp))} | {ms(percentile(lsp, 0.99))} | "
              f"{ms(statistics.median(query))} | {ms(percentile(query, 0.99))} | "
              + ", ".join(f"{p} {n}" for p, n in items.items()) + " |", flush=True)
    print(f"\n{len(PREFIXES)} prefixes × {requests} completions per size (`{' '.join(PREFIXES)}`); "
          "query: whole process per lookup.")


if __name__ == "__main__":
    main()
