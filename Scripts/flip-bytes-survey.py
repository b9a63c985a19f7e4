#!/usr/bin/env python3
"""Flips seeded random bytes inside the rows of one table of a capital database, many times over,
and tallies what `capital balance`, `capital export` and `capital check` make of each copy.

For docs/reliability.md: how often damage inside a table is found by `check`, how often
commands refuse the file, answer from what is left, or answer wrongly without knowing, and whether
any of them crashes, writes to the file or leaves -wal/-shm files behind (none may).

Usage:
  swift build --scratch-path .build-tests --product capital
  .build-tests/debug/capital --db /tmp/household.sqlite import samples/household.yaml
  Scripts/flip-bytes-survey.py /tmp/household.sqlite posting --seeds 150 --bytes 3

Each seed picks a leaf page of the table's b-tree and flips --bytes bytes (XOR with 1..255) in
its cell content area, the part of the page that holds rows. Python's random.Random(seed): the
same seeds give the same files on every run.
"""
import argparse
import hashlib
import os
import random
import sqlite3
import subprocess
import sys
import tempfile


def leaf_pages(data, page_size, root):
    """The leaf pages of the table b-tree rooted at `root` (https://sqlite.org/fileformat2.html)."""
    start = (root - 1) * page_size + (100 if root == 1 else 0)
    kind = data[start]
    if kind == 0x0D:
        return [root]
    if kind != 0x05:
        return []
    cells = int.from_bytes(data[start + 3:start + 5], "big")
    children = []
    for i in range(cells):
        pointer = int.from_bytes(data[start + 12 + 2 * i:start + 14 + 2 * i], "big")
        at = (root - 1) * page_size + pointer
        children.append(int.from_bytes(data[at:at + 4], "big"))
    children.append(int.from_bytes(data[start + 8:start + 12], "big"))
    return [leaf for child in children for leaf in leaf_pages(data, page_size, child)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("database")
    parser.add_argument("table")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--bytes", type=int, default=3)
    parser.add_argument("--capital", default=os.path.join(os.path.dirname(__file__), "..", ".build-tests", "debug", "capital"))
    args = parser.parse_args()

    with sqlite3.connect(args.database) as connection:
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        root = connection.execute("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", (args.table,)).fetchone()[0]
    connection.close()
    data = open(args.database, "rb").read()
    leaves = leaf_pages(data, page_size, root)

    def run(path, *command):
        result = subprocess.run([args.capital, "--db", path, "--today", "2025-04-01", *command], capture_output=True, text=True)
        return result.returncode, result.stdout, result.stderr

    baseline = {command: run(args.database, command)[1] for command in ("balance", "export")}
    tally = {}
    folder = tempfile.mkdtemp(prefix="capital-flip-")
    for seed in range(args.seeds):
        rng = random.Random(seed)
        damaged = bytearray(data)
        page = rng.choice(leaves)
        content = int.from_bytes(data[(page - 1) * page_size + 5:(page - 1) * page_size + 7], "big")
        for _ in range(args.bytes):
            damaged[(page - 1) * page_size + rng.randrange(content, page_size)] ^= rng.randrange(1, 256)
        path = os.path.join(folder, f"seed-{seed}.sqlite")
        open(path, "wb").write(damaged)
        digest = hashlib.sha256(damaged).hexdigest()
        outcome = []
        for command in ("balance", "export", "check"):
            code, out, err = run(path, command)
            if code < 0 or code > 1:
                outcome.append(f"{command}: CRASH ({code})")
            elif command == "check":
                outcome.append("check: found" if code == 1 else "check: clean")
            elif code == 1:
                outcome.append(f"{command}: refused" + ("" if path in err and err.count("\n") == 1 else " WITHOUT NAMING THE FILE"))
            else:
                outcome.append(f"{command}: " + ("same answer" if out == baseline[command] else "different answer"))
        if hashlib.sha256(open(path, "rb").read()).hexdigest() != digest:
            outcome.append("FILE CHANGED")
        if any(os.path.exists(path + suffix) for suffix in ("-wal", "-shm", "-journal")):
            outcome.append("SIDE FILES LEFT")
        for item in outcome:
            tally[item] = tally.get(item, 0) + 1
        os.remove(path)
    os.rmdir(folder)
    print(f"{args.table}: {args.seeds} seeds x {args.bytes} bytes in {len(leaves)} leaf pages")
    for item in sorted(tally):
        print(f"  {item}: {tally[item]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
