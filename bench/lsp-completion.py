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

Prints p50 and p99 in milliseconds, and how many items the completion held. Wall-clock times
follow the host's load (other builds on its two cores), so the CPU time each takes is printed too:
the server's user + system time per completion (from /proc before the first and `wait4` after
the last), and each `query` process's (`wait4`).
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
    ticks = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{p.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu_before = (int(fields[11]) + int(fields[12])) / ticks
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
    _, _, usage = os.wait4(p.pid, 0)
    p.returncode = 0
    return times, items, (usage.ru_utime + usage.ru_stime - cpu_before) / len(times)


def query_latencies(bin_path, db, runs):
    times, cpu = [], 0.0
    for _ in range(runs):
        for prefix in PREFIXES:
            started = time.perf_counter()
            p = subprocess.Popen([bin_path, "--db", db, "query", prefix], stdout=subprocess.DEVNULL)
            _, _, usage = os.wait4(p.pid, 0)
            p.returncode = 0
            times.append(time.perf_counter() - started)
            cpu += usage.ru_utime + usage.ru_stime
    return times, cpu / len(times)


def main():
    args = sys.argv[1:]
    requests = 200
    if "--requests" in args:
        at = args.index("--requests")
        requests = int(args[at + 1])
        del args[at:at + 2]
    bin_path, out, sizes = args[0], args[1], [int(s) for s in args[2:]] or [10_000, 100_000]
    os.makedirs(out, exist_ok=True)
    print("| book | `--lsp` completion p50 | p99 | CPU per completion | `query` p50 | p99 | CPU per query | items per prefix |")
    print("|---|---|---|---|---|---|---|---|")
    for size in sizes:
        db = book(bin_path, out, size)
        lsp, items, lsp_cpu = lsp_latencies(bin_path, db, requests)
        query, query_cpu = query_latencies(bin_path, db, max(4, requests // 20))
        ms = lambda s: f"{s * 1000:.2f} ms"  # noqa: E731
        print(f"| {size:,} | {ms(statistics.median(lsp))} | {ms(percentile(lsp, 0.99))} | {ms(lsp_cpu)} | "
              f"{ms(statistics.median(query))} | {ms(percentile(query, 0.99))} | {ms(query_cpu)} | "
              + ", ".join(f"{p} {n}" for p, n in items.items()) + " |", flush=True)
    with open("/proc/loadavg") as load:
        average = load.read().split()[0]
    print(f"\n{len(PREFIXES)} prefixes × {requests} completions per size (`{' '.join(PREFIXES)}`); "
          f"query: whole process per lookup. Load average at the end: {average} on {os.cpu_count()} CPUs.")


if __name__ == "__main__":
    main()
