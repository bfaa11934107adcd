#!/usr/bin/env python3
"""When each step of `contactsbook query TEXT` with a directory happens, medians over RUNS runs, in ms
after execve, from `strace -f --seccomp-bpf -ttt` (only these syscalls stop the process, but each
stop costs: the times are later than untraced ones, the order and the gaps are what to read).

    python3 bench/directory-timeline.py RUNS BIN BOOK [TEXT]

BOOK is a book with one directory (bench/directory.py makes such books and a slapd). Steps: the
book opened by SQLite (its -wal file), libldap opened by the loader, the TCP connect to the
directory, the search request sent, the answer on stdout, exit_group."""
import os
import re
import statistics
import subprocess
import sys
import tempfile

STEPS = {"book opened (-wal)": r'openat\(.*\.sqlite-wal"', "libldap opened": r'openat\(.*/libldap[-.]',
         "connect to the directory": r'connect\(.*AF_INET', "search request sent": r'write\(\d+, "0\\202',
         "stdout written": r'write\(1,', "exit_group": r'exit_group'}


def main(runs, binary, book, text):
    got = {step: [] for step in STEPS}
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace")
        for _ in range(runs):
            subprocess.run(["strace", "-f", "--seccomp-bpf", "-ttt", "-e", "trace=execve,openat,connect,write,exit_group",
                            "-o", trace, binary, "query", "--db", book, *text.split()], capture_output=True, check=False)
            lines = open(trace).read().splitlines()
            start = float(lines[0].split()[1])
            for step, pattern in STEPS.items():
                # The first line of that step that succeeded (libldap's name is also tried beside the binary).
                found = next((line for line in lines if re.search(pattern, line) and "ENOENT" not in line), None)
                if found:
                    got[step].append((float(found.split()[1]) - start) * 1000)
    print(f"{binary} {book} `{text}`, {runs} runs, load {os.getloadavg()[0]:.1f}; ms after execve, medians")
    for step, times in got.items():
        print(f"  {step:26s} {statistics.median(times):6.2f}" if times else f"  {step:26s} -")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "zoë")
