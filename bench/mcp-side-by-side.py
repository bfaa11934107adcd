#!/usr/bin/env python3
"""What one MCP tool call costs next to the JSON-RPC methods it stands for, and whether the RPC
path moved: `get` over `--mcp` (both protocol generations) against `contacts/show` followed by
`session/popTo` over `--rpc` (what the tool drives through the session), for two binaries,
interleaved round by round so both see the same minutes of the host.

    mcp-side-by-side.py BEFORE_BIN AFTER_BIN [ROUNDS] > table.txt

BEFORE_BIN may lack `--mcp` (main before issue 16): its MCP rows are then skipped.
"""
import json, os, statistics, subprocess, sys, tempfile, time, types
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

BOOK = 1000
CALLS = 1500
WARMUP = 50
MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def line(message):
    return (json.dumps(message) + "\n").encode()


def round_trips(argv, opening, make):
    """Median seconds per exchange, and the server's CPU seconds (user + sys, start-up included)
    per exchange: `make(i)` gives the requests of exchange i, the last one's id is waited for."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    reader = bench.FrameReader(p.stdout.fileno(), "NDJSON")
    for message in opening:
        os.write(p.stdin.fileno(), line(message))
        reader.read_response(message["id"])
    times = []
    for i in range(1, CALLS + 1):
        messages = make(i)
        t = time.perf_counter()
        for message in messages:
            os.write(p.stdin.fileno(), line(message))
            reader.read_response(message["id"])
        if i > WARMUP:
            times.append(time.perf_counter() - t)
    p.stdin.close()
    _, _, usage = os.wait4(p.pid, 0)
    p.returncode = 0
    return statistics.median(times), (usage.ru_utime + usage.ru_stime) / CALLS


def rows_for(binary, db, has_mcp):
    number = lambda i: i % BOOK + 1  # noqa: E731
    rows = {"--rpc contacts/show + session/popTo": round_trips(
        [binary, "--rpc", "--db", db], [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}],
        lambda i: [{"jsonrpc": "2.0", "id": 2 * i, "method": "contacts/show", "params": {"contact": number(i)}},
                   {"jsonrpc": "2.0", "id": 2 * i + 1, "method": "session/popTo", "params": {"scene": "contacts"}}])}
    if has_mcp:
        handshake = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                     "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
        rows["--mcp tools/call get (2025-11-25)"] = round_trips(
            [binary, "--mcp", "--db", db], [handshake],
            lambda i: [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
                        "params": {"name": "get", "arguments": {"contact": number(i)}}}])
        rows["--mcp tools/call get (2026-07-28 _meta)"] = round_trips(
            [binary, "--mcp", "--db", db], [],
            lambda i: [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
                        "params": {"name": "get", "arguments": {"contact": number(i)}, "_meta": MODERN}}])
    return rows


def main():
    bins = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    out = tempfile.mkdtemp(prefix="mcp-side-by-side-")
    db = bench.Bench(types.SimpleNamespace(quick=True, bin=bins["after"], out=out)).load(BOOK)
    has_mcp = {name: b"--mcp" in subprocess.run([path, "session", "--help"], capture_output=True).stdout
               for name, path in bins.items()}
    results = {}
    for rnd in range(rounds):
        for name, path in (list(bins.items()) if rnd % 2 == 0 else list(bins.items())[::-1]):
            for what, (wall, cpu) in rows_for(path, db, has_mcp[name]).items():
                results.setdefault((what, name), []).append((round(wall * 1e6, 1), round(cpu * 1e6, 1)))
    print("book of %d contacts, %d exchanges per run after %d warm-up; per exchange: median wall µs, "
          "and the server's CPU µs (user+sys over the run / %d)" % (BOOK, CALLS - WARMUP, WARMUP, CALLS))
    for (what, name), values in sorted(results.items()):
        walls, cpus = [w for w, _ in values], [c for _, c in values]
        print("%-44s %-6s wall %7.1f µs  cpu %7.1f µs  runs wall %s cpu %s"
              % (what, name, statistics.median(walls), statistics.median(cpus), walls, cpus))


if __name__ == "__main__":
    main()
