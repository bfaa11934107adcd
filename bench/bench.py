#!/usr/bin/env python3
"""ContactsBook benchmark driver; run it through bench/run, which builds and sets up first.

    bench.py --bin PATH --out DIR --khard PATH [--quick]

Writes DIR/results.json and bench/RESULTS.md. Asserts nothing about speed: a missed target is
reported, never an error. Exits non-zero only if something could not run at all.
"""
import argparse
import csv as csvmodule
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def log(*a):
    print("[bench]", *a, file=sys.stderr, flush=True)


def pct(values, p):
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, int(round(p / 100.0 * (len(s) - 1)))))
    return s[k]


def fmt_ms(seconds):
    if seconds is None or seconds != seconds:
        return "—"
    ms = seconds * 1000
    if ms >= 100:
        return "%.0f ms" % ms
    if ms >= 1:
        return "%.2f ms" % ms
    return "%.1f µs" % (ms * 1000)


def human(n):
    return "%dk" % (n // 1000) if n < 1_000_000 else "%gM" % (n / 1_000_000)


class Bench:
    def __init__(self, args):
        self.args = args
        self.quick = args.quick
        self.bin = args.bin
        self.out = args.out
        self.data = os.path.join(self.out, "data")
        self.dbs = os.path.join(self.out, "db")
        os.makedirs(self.data, exist_ok=True)
        os.makedirs(self.dbs, exist_ok=True)
        self.runs = 3 if self.quick else 10
        self.sizes = [1000, 5000] if self.quick else [10_000, 100_000, 1_000_000]
        if args.sizes:  # side by side on a shared host: the sizes that matter, sooner
            self.sizes = [int(n) for n in args.sizes.split(",")]
        self.peer_sizes = [1000] if self.quick else [1000, 5000]
        self.loaded = {}
        # A binary that knows --create needs it for a new book; older ones (the previous binary
        # measured side by side) made one at any path and refuse the flag.
        helped = subprocess.run([self.bin, "--help"], capture_output=True, text=True).stdout
        self.create = ["--create"] if "--create" in helped else []
        self.results = {"quick": self.quick, "sizes": self.sizes, "peer_sizes": self.peer_sizes,
                        "notes": [], "rows": []}

    # ---------- helpers

    def note(self, text):
        log("note:", text)
        self.results["notes"].append(text)

    def row(self, group, what, size, value, unit="s", extra=None):
        r = {"group": group, "what": what, "size": size, "value": value, "unit": unit}
        if extra:
            r.update(extra)
        self.results["rows"].append(r)
        log(group, what, size, value if unit != "s" else fmt_ms(value), extra or "")

    def hyperfine(self, commands, runs=None, warmup=1):
        """Whole-process timings; returns {name: {median, mean, min, max, times}}."""
        runs = runs or self.runs
        js = os.path.join(self.out, "hf.json")
        cmd = ["hyperfine", "--style", "none", "--warmup", str(warmup), "--runs", str(runs),
               "--export-json", js]
        for name, c in commands:
            cmd += ["-n", name, c]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(js) as f:
            res = json.load(f)["results"]
        return {r["command"]: r for r in res}

    def dataset(self, n, vdir=False):
        vcf = os.path.join(self.data, "cards-%d.vcf" % n)
        need = not os.path.exists(vcf) or (vdir and not os.path.isdir(os.path.join(self.data, "vdir-%d" % n)))
        if need:
            t = time.time()
            extra = ["--vdir"] if vdir else []
            subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), str(n), self.data] + extra, check=True)
            log("generated %d contacts in %.1fs" % (n, time.time() - t))
        with open(os.path.join(self.data, "queries-%d.json" % n)) as f:
            return vcf, json.load(f)

    # ---------- loading

    def load(self, n):
        """Loads n generated contacts into a fresh database (once per run); returns its path."""
        if n in self.loaded:
            return self.loaded[n]
        self.loaded[n] = self._load(n)
        return self.loaded[n]

    def _load(self, n):
        """The product's own import: `contactsbook import --db DB cards-N.vcf`, one transaction."""
        vcf, _ = self.dataset(n, vdir=n in self.peer_sizes)
        db = os.path.join(self.dbs, "book-%d.sqlite" % n)
        self.remove_db(db)
        elapsed, rss, cpu = self.timed([self.bin, "import", "--db", db] + self.create + [vcf], "importing %d" % n, cpu=True)
        # Cross-check: every card is a row, and both search indexes have one entry per row.
        counts = self.count(db)
        if counts != (n, n, n):
            raise SystemExit("import of %d cards gave (rows, text index, phone index) = %s" % (n, counts))
        if n == (self.sizes[1] if len(self.sizes) > 1 else self.sizes[-1]):
            self.import_against_floor(n, db, vcf, (elapsed, cpu, rss))
        else:
            self.row("load", "import (product, whole process)", n, n / elapsed, unit="cards/s",
                     extra={"seconds": elapsed, "maxrss_kb": rss, "cpu": cpu})
        return db

    def import_against_floor(self, n, db, vcf, first):
        """Issue 32's floor for the import: SQLite alone writing the rows the import wrote, with
        the product's schema, in one `INSERT … SELECT` per table (`bench/import-floor.sh`), in
        rounds interleaved with imports of the same cards (`bench/import-rounds.sh`), so load
        from other work falls on both alike. The import above and the floor's first copy are
        round one; the rows are the medians of all rounds (one import of a few seconds swung by a
        third on the shared host), with the rounds' own ratios beside them."""
        elapsed, cpu, rss = first
        env = dict(os.environ, TMPDIR=os.path.join(self.out, "tmp"))
        imports, floors = [(elapsed, cpu, rss)], []
        r = subprocess.run([os.path.join(HERE, "import-floor.sh"), self.bin, db, "1"], capture_output=True,
                           text=True, env=env)
        line = next((l for l in r.stdout.splitlines() if l.startswith("floor ")), None)
        if r.returncode != 0 or line is None:
            self.note("bench/import-floor.sh failed at %d: %s" % (n, (r.stderr or r.stdout)[-500:]))
        else:
            m = re.search(r"([0-9.]+) s wall \(([0-9.]+) user, ([0-9.]+) sys\)", line)
            floors.append((float(m.group(1)), float(m.group(2)) + float(m.group(3)), None))
            more = 1 if self.quick else 2
            r = subprocess.run([os.path.join(HERE, "import-rounds.sh"), str(more), vcf, db, self.bin],
                               capture_output=True, text=True, env=env)
            if r.returncode != 0:
                self.note("bench/import-rounds.sh failed at %d: %s" % (n, (r.stderr or r.stdout)[-500:]))
            # One line a run, in round order: label, wall s, CPU s, peak RSS kB.
            for l in r.stdout.splitlines():
                f = l.split()
                if len(f) == 4 and f[0] in ("floor", "bin1"):
                    (floors if f[0] == "floor" else imports).append((float(f[1]), float(f[2]), int(f[3])))
        walls = [w for w, _, _ in imports]
        wall = statistics.median(walls)
        extra = {"seconds": wall, "maxrss_kb": max(x for _, _, x in imports),
                 "cpu": statistics.median(c for _, c, _ in imports), "rounds": len(imports), "walls": walls}
        if floors:
            pairs = list(zip(walls, (w for w, _, _ in floors)))
            extra["round_ratios"] = [w / f for w, f in pairs]
        self.row("load", "import (product, whole process)", n, n / wall, unit="cards/s", extra=extra)
        if floors:
            self.row("load", "floor: SQLite alone writing the same rows (bench/import-floor.sh)", n,
                     statistics.median(w for w, _, _ in floors),
                     extra={"cpu": statistics.median(c for _, c, _ in floors), "rounds": len(floors),
                            "walls": [w for w, _, _ in floors], "line": line})

    def count(self, db):
        sql = ("SELECT (SELECT COUNT(*) FROM contact), (SELECT COUNT(*) FROM contact_text), "
               "(SELECT COUNT(*) FROM contact_phone)")
        r = subprocess.run(["sqlite3", db, sql], capture_output=True, text=True, check=True)
        return tuple(int(x) for x in r.stdout.strip().split("|"))

    def timed(self, argv, what, stdin=None, cpu=False):
        """Runs the product under /usr/bin/time; its wall time and peak RSS (KiB), and with `cpu`
        its CPU time (user + sys, s). Stops the run with the product's stderr if it fails."""
        t = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%M %U %S"] + argv, input=stdin,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - t
        if r.returncode != 0:
            raise SystemExit("%s failed: %s" % (what, r.stderr.decode()[-2000:]))
        rss, user, system = r.stderr.decode().strip().splitlines()[-1].split()
        return (elapsed, int(rss), float(user) + float(system)) if cpu else (elapsed, int(rss))

    @staticmethod
    def remove_db(db):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)

    def export(self, n, db):
        """The list's `export PATH` in a piped line session (vCard 4.0, the whole book); the
        median of a few runs (one run of a few seconds swung by a third on the shared machine)."""
        path = os.path.join(self.out, "export-%d.vcf" % n)
        runs = 1 if n >= 1000000 else (2 if self.quick else 5)
        times, peaks, cpus = [], [], []
        for _ in range(runs):
            if os.path.exists(path):
                os.remove(path)
            elapsed, rss, cpu = self.timed([self.bin, "--db", db, "--bail"], "export of %d" % n,
                                           stdin=("export %s\n" % path).encode(), cpu=True)
            times.append(elapsed)
            peaks.append(rss)
            cpus.append(cpu)
            with open(path, "rb") as f:
                cards = sum(1 for line in f if line.startswith(b"BEGIN:VCARD"))
            if cards != n:
                raise SystemExit("export wrote %d of %d cards" % (cards, n))
            os.remove(path)
        elapsed = statistics.median(times)
        # CPU beside the wall: on a shared host the wall clock is mostly other people's work.
        self.row("export", "export (product, whole process)", n, n / elapsed, unit="cards/s",
                 extra={"seconds": elapsed, "maxrss_kb": max(peaks), "runs": runs, "cpu": statistics.median(cpus)})

    def csv(self, n, db):
        """CSV both ways, below 1M: the book exported as CSV (`export PATH csv` in a piped line
        session), then that file imported into an empty book (`contactsbook import --format csv`);
        the median of a few runs each. Imports read Google's and Outlook's CSV too, so a CSV file
        of this size is what a move from another address book brings."""
        if n >= 1000000:
            return
        path = os.path.join(self.out, "export-%d.csv" % n)
        fresh = os.path.join(self.dbs, "csv-%d.sqlite" % n)
        runs = 2 if self.quick else 3
        exports, imports = [], []
        for _ in range(runs):
            if os.path.exists(path):
                os.remove(path)
            exports.append(self.timed([self.bin, "--db", db, "--bail"], "CSV export of %d" % n,
                                      stdin=("export %s csv\n" % path).encode()))
            with open(path, newline="", encoding="utf-8") as f:
                written = sum(1 for _ in csvmodule.reader(f)) - 1
            if written != n:
                raise SystemExit("CSV export wrote %d of %d rows" % (written, n))
            self.remove_db(fresh)
            imports.append(self.timed([self.bin, "import", "--db", fresh] + self.create + ["--format", "csv", path], "CSV import of %d" % n))
            if self.count(fresh) != (n, n, n):
                raise SystemExit("CSV import of %d rows gave (rows, text index, phone index) = %s" % (n, self.count(fresh)))
        os.remove(path)
        self.remove_db(fresh)
        for what, measured in (("CSV export (product, whole process)", exports),
                               ("CSV import (product, whole process)", imports)):
            elapsed = statistics.median(t for t, _ in measured)
            self.row("csv", what, n, n / elapsed, unit="cards/s",
                     extra={"seconds": elapsed, "maxrss_kb": max(k for _, k in measured), "runs": runs})

    # ---------- one long-lived line session, request by request

    def session_latencies(self, db, commands, repeat):
        """Sends each command, then `stack` as an end marker, and times until the marker's
        answer arrives. Returns {command: [seconds...]}."""
        p = subprocess.Popen([self.bin, "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0)
        out = p.stdout
        buf = b""

        def until_marker():
            nonlocal buf
            while True:
                i = buf.find(MARKER)
                if i >= 0:
                    buf = buf[i + len(MARKER):]
                    return
                chunk = os.read(out.fileno(), 1 << 16)
                if not chunk:
                    raise SystemExit("the session ended early")
                buf += chunk

        # Warm up: one of each, untimed.
        for c in commands:
            p.stdin.write((c + "\nstack\n").encode())
            until_marker()
        times = {c: [] for c in commands}
        for _ in range(repeat):
            for c in commands:
                t = time.perf_counter()
                p.stdin.write((c + "\nstack\n").encode())
                until_marker()
                times[c].append(time.perf_counter() - t)
        p.stdin.close()
        p.wait()
        return times

    # ---------- measurements

    def search_and_paging(self, n, db, queries):
        cmds = {
            "search: name prefix": "search " + queries["name"],
            "search: email fragment": "search " + queries["email"],
            "search: phone digits": "search " + queries["phone"],
            "list: first page": "page 1",
            "list: deep page (page N/200, 10% in; page 5,000 at 1M)": "page %d" % max(1, n // 200),
            "list: last page": "page %d" % ((n + 19) // 20),
        }
        repeat = 30 if self.quick else 50
        # searches first, then `list` resets the listing so `page N` pages the whole book
        search = {k: v for k, v in cmds.items() if k.startswith("search")}
        paging = {k: v for k, v in cmds.items() if k.startswith("list")}
        t1 = self.session_latencies(db, list(search.values()), repeat)
        t2 = self.session_latencies(db, ["list"] + list(paging.values()), repeat)
        t1.update(t2)
        for label, c in list(search.items()) + list(paging.items()):
            ts = t1[c]
            self.row("latency", label, n, statistics.median(ts), extra={"p99": pct(ts, 99), "samples": len(ts)})
        # the marker alone: what every number above includes
        tm = self.session_latencies(db, ["stack"], repeat)["stack"]
        self.row("latency", "marker only (`stack`; included above)", n, statistics.median(tm),
                 extra={"p99": pct(tm, 99), "samples": len(tm)})

    def processes(self, commands, runs, answered=()):
        """Whole-process wall time from spawn to exit, stdin from a file, no shell in between
        (hyperfine's shell correction made millisecond commands read 0 on a loaded machine).
        `commands` is [(name, argv, stdin text or None)]; runs are interleaved, after one warm-up.
        A command named in `answered` is timed as a client waits for it instead: stdin a pipe kept
        open, its text written, from spawn until the first line of its answer is read (then stdin
        is closed and the process reaped outside the time)."""
        times = {name: [] for name, _, _ in commands}
        inputs = {}
        for name, _, text in commands:
            if text is not None:
                path = os.path.join(self.out, "stdin-%d.txt" % len(inputs))
                with open(path, "w") as f:
                    f.write(text)
                inputs[name] = path
        for k in range(runs + 1):
            for name, argv, text in commands:
                if name in answered:
                    t = time.perf_counter()
                    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.DEVNULL)
                    child.stdin.write(text.encode())
                    child.stdin.flush()
                    line = child.stdout.readline()
                    elapsed = time.perf_counter() - t
                    child.stdin.close()
                    child.stdout.read()
                    if child.wait() != 0 or not line.strip():
                        raise SystemExit("%s: no answer, or exit status %d" % (name, child.returncode))
                    if k:
                        times[name].append(elapsed)
                    continue
                with open(inputs.get(name, os.devnull), "rb") as stdin:
                    t = time.perf_counter()
                    subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    if k:
                        times[name].append(time.perf_counter() - t)
        return times

    def first_answer(self, n, db, queries):
        """Whole-process time from exec to the first answer, for each way of asking."""
        email = queries["email"]
        # What `contactsbook query EMAIL` asks of SQLite: the matching contacts' emails and names,
        # by last name, at most 100 contacts (MailQueryWorker); the same FTS5 phrase-prefix query.
        # (The word index keeps letters and digits apart: "brown636" is the phrase "brown 636".)
        phrase = re.sub(r"(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])", " ", email.lower())
        sql = ("SELECT emails, given, family, organization FROM contact WHERE id IN "
               "(SELECT rowid FROM contact_text WHERE contact_text MATCH '\"%s\"*') "
               "ORDER BY sort_last, id LIMIT 100" % phrase.replace("'", "''"))
        init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n'
        cmds = [
            ("contactsbook query (mutt; an email fragment)", [self.bin, "query", "--db", db, email], None),
            ("sqlite3 shell: the same FTS query", ["sqlite3", db, sql], None),
            # The goal's figure: what an editor waits for (spawn to `initialize`'s answer read).
            ("contactsbook --rpc: initialize answered (the editor's wait: stdin kept open, spawn to the answer read)",
             [self.bin, "--rpc", "--db", db], init),
            # The whole process beside it: the answer, then end of input, the book's open and exit.
            ("contactsbook --rpc: initialize, then end of input (whole process, spawn to exit)",
             [self.bin, "--rpc", "--db", db], init),
            ("contactsbook: one piped command (`search %s`)" % queries["name"], [self.bin, "--db", db],
             "search %s\n" % queries["name"]),
            ("contactsbook --help (no database)", [self.bin, "--help"], None),
            ("floor: a C program that exits at once (spawn + wait)", [os.path.join(self.out, "echo")], None),
        ]
        # Beside it, labelled: the previous commit's binary, the fully static build (which
        # cannot sync, so README does not install it). The same book: same schema family.
        for label, other in (("previous commit's binary", self.args.previous),
                             ("fully static build (not installed, cannot sync)", self.args.static_bin)):
            if other:
                cmds += [
                    ("%s: query" % label, [other, "query", "--db", db, email], None),
                    ("%s: --rpc initialize answered (the editor's wait)" % label, [other, "--rpc", "--db", db], init),
                    ("%s: --rpc initialize, then end of input (whole process)" % label,
                     [other, "--rpc", "--db", db], init),
                    ("%s: one piped command" % label, [other, "--db", db], "search %s\n" % queries["name"]),
                    ("%s: --help" % label, [other, "--help"], None),
                ]
        res = self.processes(cmds, runs=self.runs * 3, answered={c[0] for c in cmds if "initialize answered" in c[0]})
        for name, _, _ in cmds:
            ts = res[name]
            self.row("start", name, n, statistics.median(ts), extra={"p99": pct(ts, 99), "min": min(ts)})

    def memory(self, n, db, queries):
        """Peak resident memory of a session (list, a deep page, three searches), read from
        /proc before it exits, split into the heap (RssAnon) and mapped files (RssFile: the
        binary and the database pages SQLite reads through mmap, which the kernel can drop)."""
        script = "list\npage %d\nsearch %s\nsearch %s\nsearch %s\nstack\n" % (
            max(1, n // 200), queries["name"], queries["email"], queries["phone"])
        p = subprocess.Popen([self.bin, "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0)
        p.stdin.write(script.encode())
        out = b""
        while not out.endswith(MARKER):
            chunk = os.read(p.stdout.fileno(), 1 << 16)
            if not chunk:
                raise SystemExit("the memory session ended early")
            out += chunk
        with open("/proc/%d/status" % p.pid) as f:
            status = {k: v.strip() for k, v in (line.split(":", 1) for line in f if ":" in line)}
        p.stdin.close()
        p.stdout.read()
        p.wait()
        kb = lambda key: int(status[key].split()[0])
        self.row("memory", "session: list, deep page, 3 searches (peak RSS, VmHWM)", n, kb("VmHWM"), unit="KiB")
        self.row("memory", "the same session's heap at its end (RssAnon)", n, kb("RssAnon"), unit="KiB")
        self.row("memory", "the same session's mapped files at its end (RssFile: binary + mmap'd database)", n,
                 kb("RssFile"), unit="KiB")

    def echo_floor_and_rpc(self):
        echo = os.path.join(self.out, "echo")
        subprocess.run(["cc", "-O2", "-o", echo, os.path.join(HERE, "echo.c")], check=True)
        req = '{"jsonrpc":"2.0","id":%d,"method":"session/stack"}'
        n = 2000 if self.quick else 20000

        def ndjson(i):
            return (req % i + "\n").encode()

        def content_length(i):
            body = (req % i).encode()
            return b"Content-Length: %d\r\n\r\n" % len(body) + body

        rpc = [self.bin, "--rpc", "--db", ":memory:"]
        for framing, make in (("NDJSON", ndjson), ("Content-Length", content_length)):
            ts = self.round_trips([echo], make, framing, n, echo=True)
            self.row("rpc", "echo floor, one at a time (%s)" % framing, 0, statistics.median(ts),
                     extra={"p99": pct(ts, 99), "samples": len(ts)})
            ts = self.round_trips(rpc, make, framing, n)
            self.row("rpc", "contactsbook --rpc session/stack, one at a time (%s)" % framing, 0,
                     statistics.median(ts), extra={"p99": pct(ts, 99), "samples": len(ts)})
        m = 20000 if self.quick else 200000
        for framing, make in (("NDJSON", ndjson), ("Content-Length", content_length)):
            rate, _ = self.pipelined([echo], make, m, echo=True)
            self.row("throughput", "echo floor, pipelined (%s)" % framing, 0, rate, unit="req/s")
            rate, cpu = self.pipelined(rpc, make, m)
            self.row("throughput", "contactsbook --rpc session/stack, pipelined (%s)" % framing, 0, rate, unit="req/s",
                     extra={"cpu": cpu, "requests": m})

    def rpc_search(self, n, db, queries):
        """A search over --rpc on a real book, one request at a time (NDJSON): what an editor sees."""
        texts = [("name prefix", queries["name"]), ("email fragment", queries["email"]), ("phone digits", queries["phone"])]
        for label, text in texts:
            def make(i, text=text):
                return (json.dumps({"jsonrpc": "2.0", "id": i, "method": "contacts/search",
                                    "params": {"text": text}}) + "\n").encode()
            ts = self.round_trips([self.bin, "--rpc", "--db", db], make, "NDJSON", 80 if self.quick else 65, warmup=5)
            self.row("rpcsearch", "contacts/search over --rpc: " + label, n, statistics.median(ts),
                     extra={"p99": pct(ts, 99), "samples": len(ts)})

    def round_trips(self, argv, make, framing, n, echo=False, warmup=50):
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        fd_in, fd_out = p.stdin.fileno(), p.stdout.fileno()
        reader = FrameReader(fd_out, framing)
        if not echo:
            # Content-Length clients must initialize first; NDJSON ones may. Do it in both.
            init = self._reframe(framing, b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}')
            os.write(fd_in, init)
            reader.read_response(0)
        times = []
        for i in range(1, n + 1):
            msg = make(i)
            t = time.perf_counter()
            os.write(fd_in, msg)
            reader.read_response(i if not echo else None)
            if i > warmup:
                times.append(time.perf_counter() - t)
        p.stdin.close()
        p.wait()
        return times

    @staticmethod
    def _reframe(framing, body):
        if framing == "NDJSON":
            return body + b"\n"
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def pipelined(self, argv, make, m, echo=False):
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        payload = b"".join(make(i) for i in range(1, m + 1))
        if not echo:
            framing = "NDJSON" if payload.startswith(b"{") else "Content-Length"
            payload = self._reframe(framing, b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}') + payload

        def feed():
            p.stdin.write(payload)
            p.stdin.close()

        t = time.perf_counter()
        th = threading.Thread(target=feed)
        th.start()
        lines = 0
        fd = p.stdout.fileno()
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            lines += chunk.count(b"\n") if echo else chunk.count(b'"id":')
        elapsed = time.perf_counter() - t
        th.join()
        # The server's own CPU (user + sys), from its rusage: the wall includes the host's load.
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if not echo and lines < m:
            raise SystemExit("pipelined: %d responses to %d requests" % (lines, m))
        return m / elapsed, usage.ru_utime + usage.ru_stime

    def khard(self):
        kh = self.args.khard
        if not kh:
            self.note("No khard given (bench/run gives none when PyPI could not install it): no peer comparison in this run.")
            return
        for n in self.peer_sizes:
            vcf, q = self.dataset(n, vdir=True)
            db = self.load(n)
            conf = os.path.join(self.data, "khard-%d.conf" % n)
            with open(conf, "w") as f:
                f.write("[addressbooks]\n[[book]]\npath = %s\n[general]\ndefault_action = list\n"
                        % os.path.join(self.data, "vdir-%d" % n))
            b, dbq, k = shlex.quote(self.bin), shlex.quote(db), shlex.quote(kh)
            email = shlex.quote(q["email"])
            ours_query = "%s query --db %s %s" % (b, dbq, email)
            pairs = [
                ("list", "printf 'list\\n' | %s --db %s" % (b, dbq), "%s -c %s list" % (k, conf)),
                ("search", "printf 'search %s\\n' | %s --db %s" % (q["name"], b, dbq),
                 "%s -c %s list %s" % (k, conf, q["name"])),
                ("email query (ours: `contactsbook query`)", ours_query, "%s -c %s email --parsable %s" % (k, conf, email)),
            ]
            runs = 2 if self.quick else 5
            for what, ours, theirs in pairs:
                res = self.hyperfine([("ours", ours), ("khard", theirs)], runs=runs, warmup=1)
                o, t = res["ours"]["median"], res["khard"]["median"]
                self.row("khard", what, n, t / o, unit="×", extra={"ours": o, "khard": t})

    def carddav(self):
        """Issue 32's sync goals, by bench/carddav.py (Radicale: the first download, a sync with
        nothing to do, a push of 100 edits, each against the server's floor) and
        bench/carddav-scale.py (a first download of 5,000 and 50,000 cards on a server in memory:
        against the requests' own floor, and peak memory), run with the Python that has Radicale."""
        python = self.args.carddav_python
        if not python:
            self.note("No Python with Radicale given (bench/run gives none when PyPI could not install it): "
                      "no CardDAV rows in this run.")
            return
        work = os.path.join(self.out, "carddav-run")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        binaries = [self.bin] + ([self.args.previous] if self.args.previous else [])
        dav = (["--cards", "300", "--runs", "1", "--push", "5", "--noop-repeats", "2"] if self.quick
               else ["--cards", "5000", "--runs", "3", "--push", "100", "--noop-repeats", "5"])
        scale = ["--cards", "300", "1000", "--runs", "1"] if self.quick else ["--cards", "5000", "50000", "--runs", "3"]
        for script, extra in (("carddav.py", dav), ("carddav-scale.py", scale)):
            name = script.replace(".py", "")
            log("running", script, *extra)
            subprocess.run([python, os.path.join(HERE, script), *binaries, *extra, "--out", os.path.join(work, name),
                            "--json", os.path.join(work, name + ".json")], check=True, stdout=sys.stderr)
            with open(os.path.join(work, name + ".json")) as f:
                summary = json.load(f)
            if script == "carddav.py":
                for key, r in summary["rows"].items():
                    self.row("carddav", key, summary["cards"], r["ours"][0],
                             extra={"floor": r["floor"], "cpu": r["cpu"][0], "push": summary["push"],
                                    "runs": summary["runs"], "previous": r["ours"][1:] or None,
                                    "samples": summary.get("noop_repeats") if key == "noop" else None})
            else:
                for n, r in summary["sizes"].items():
                    ours = r["binaries"][0]
                    self.row("carddav-scale", "first download", int(n), ours["wall"],
                             extra={"floor": r["floor"], "cpu": ours["cpu"], "rss": ours["rss"], "runs": summary["runs"],
                                    "previous": r["binaries"][1:] or None})

    # ---------- main

    def libraries(self):
        """How many shared libraries each binary's start maps (`ldd`): what every start pays to
        map and relocate before `main` (issue 32: libcurl's and libxml2's 50 are loaded on first use)."""
        for label, path in (("installed binary", self.bin), ("previous commit's binary", self.args.previous),
                            ("fully static build (not installed, cannot sync)", self.args.static_bin)):
            if path:
                out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
                count = sum(1 for line in out.splitlines() if "=>" in line or line.strip().startswith("/"))
                self.row("linking", "%s: shared libraries mapped at start (`ldd`)" % label, 0, count, unit="libraries")

    def run(self):
        started = time.time()
        self.libraries()
        self.echo_floor_and_rpc()
        for n in self.sizes:
            db = self.load(n)
            _, q = self.dataset(n)
            self.export(n, db)
            self.csv(n, db)
            self.first_answer(n, db, q)
            self.search_and_paging(n, db, q)
            self.rpc_search(n, db, q)
            self.memory(n, db, q)
            self.save(started)
        self.khard()
        self.save(started)
        self.carddav()
        self.save(started)

    def save(self, started):
        """Written after every size, so a run stopped part-way still leaves its numbers."""
        self.results["elapsed"] = time.time() - started
        name = "results-quick.json" if self.quick else "results.json"
        with open(os.path.join(self.out, name), "w") as f:
            json.dump(self.results, f, indent=1, ensure_ascii=False)


MARKER = b"\n"  # replaced in main() once the `stack` answer is known


class FrameReader:
    def __init__(self, fd, framing):
        self.fd, self.framing, self.buf = fd, framing, b""

    def _fill(self):
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            raise SystemExit("the peer closed its output")
        self.buf += chunk

    def read_frame(self):
        if self.framing == "NDJSON":
            while b"\n" not in self.buf:
                self._fill()
            line, self.buf = self.buf.split(b"\n", 1)
            return line
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, rest = self.buf.split(b"\r\n\r\n", 1)
        length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
        while len(rest) < length:
            self.buf = head + b"\r\n\r\n" + rest
            self._fill()
            head, rest = self.buf.split(b"\r\n\r\n", 1)
        body, self.buf = rest[:length], rest[length:]
        return body

    def read_response(self, rid):
        """Reads frames until the response to `rid` (skipping notifications); any frame if None.
        Parses the frame rather than matching a regex built per id: compiling a new pattern for
        every request cost the client ~90 µs and was counted as the server's round trip."""
        while True:
            frame = self.read_frame()
            message = json.loads(frame)  # the echo floor pays the same client cost
            if rid is None:
                return frame
            if isinstance(message, dict) and message.get("id") == rid and "method" not in message:
                return frame


def main():
    global MARKER
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--khard", default="", help="khard's executable; empty skips the peer comparison")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--command", default="bench/run")
    ap.add_argument("--previous", default="", help="another release binary (the previous commit's) started beside --bin")
    ap.add_argument("--static-bin", default="", help="the fully static build, started beside --bin, labelled as not installed")
    ap.add_argument("--carddav-python", default="",
                    help="a Python with Radicale, for bench/carddav.py and carddav-scale.py; empty skips the CardDAV rows")
    ap.add_argument("--sizes", default="", help="comma-separated book sizes instead of the mode's (e.g. 10000,100000)")
    ap.add_argument("--rerun", default="",
                    help="rpc,memory,start,export,csv,search,carddav: re-measure only these rows of the last run's results.json (same books)")
    args = ap.parse_args()
    r = subprocess.run([args.bin, "--db", ":memory:"], input="stack\n", capture_output=True, text=True)
    MARKER = r.stdout.encode()
    if not MARKER.strip():
        raise SystemExit("`stack` printed nothing: no end marker for the line session")
    b = Bench(args)
    if args.rerun:
        groups = set(args.rerun.split(","))
        with open(os.path.join(args.out, "results.json")) as f:
            previous = json.load(f)
        b.results = previous
        drop = (({"rpc", "throughput", "rpcsearch"} if "rpc" in groups else set())
                | ({"memory"} if "memory" in groups else set()) | ({"start", "linking"} if "start" in groups else set())
                | ({"export"} if "export" in groups else set()) | ({"csv"} if "csv" in groups else set())
                | ({"latency"} if "search" in groups else set())
                | ({"carddav", "carddav-scale"} if "carddav" in groups else set()))
        b.results["rows"] = [r for r in previous["rows"] if r["group"] not in drop]
        if "rpc" in groups:
            b.echo_floor_and_rpc()
        if "start" in groups:
            b.libraries()
        for n in previous["sizes"]:
            db = os.path.join(b.dbs, "book-%d.sqlite" % n)
            if os.path.exists(db):
                _, q = b.dataset(n)
                if "rpc" in groups:
                    b.rpc_search(n, db, q)
                if "memory" in groups:
                    b.memory(n, db, q)
                if "start" in groups:
                    b.first_answer(n, db, q)
                if "export" in groups:
                    b.export(n, db)
                if "csv" in groups:
                    b.csv(n, db)
                if "search" in groups:
                    b.search_and_paging(n, db, q)
        if "carddav" in groups:
            b.carddav()
        b.note("Rows re-measured after the run on the same books with `bench/bench.py --rerun %s`: %s." % (
            args.rerun, ", ".join(sorted(drop))))
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump(b.results, f, indent=1, ensure_ascii=False)
    else:
        b.run()
    import report
    # A quick run (CI) leaves the committed full results alone.
    target = os.path.join(args.out, "RESULTS-quick.md") if args.quick else os.path.join(HERE, "RESULTS.md")
    report.write(b.results, args, target)
    log("wrote", target)


if __name__ == "__main__":
    main()
