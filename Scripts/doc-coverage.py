#!/usr/bin/env python3
"""Counts the public types and functions of CapitalCore and CapitalKit and how many carry a doc
comment (`///` on the lines just above, attributes and other comment lines in between allowed).

Usage: Scripts/doc-coverage.py [--list] [--check]
  --list   prints the undocumented ones
  --check  exits 1 when any is undocumented, listing them (.ci/run)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:static\s+|final\s+|mutating\s+|nonisolated\s+)*"
                         r"(struct|enum|class|protocol|func|init|typealias|extension)\b")


def documented(lines, index):
    j = index - 1
    while j >= 0 and lines[j].strip().startswith("@"):
        j -= 1
    return j >= 0 and lines[j].strip().startswith("///")


def main():
    check = "--check" in sys.argv
    listing = "--list" in sys.argv or check
    undocumented = 0
    for module in ("CapitalCore", "CapitalKit"):
        total = with_doc = 0
        missing = []
        for path in sorted((ROOT / "Sources" / module).rglob("*.swift")):
            lines = path.read_text(encoding="utf-8").split("\n")
            for i, line in enumerate(lines):
                match = DECLARATION.match(line)
                if not match or match.group(1) == "extension":
                    continue
                total += 1
                if documented(lines, i):
                    with_doc += 1
                else:
                    missing.append(f"{path.relative_to(ROOT)}:{i + 1}: {line.strip()}")
        print(f"{module}: {with_doc} of {total} public types and functions documented")
        if listing and missing:
            print("\n".join("  " + m for m in missing))
        undocumented += len(missing)
    if check and undocumented:
        print(f"doc-coverage: {undocumented} public declaration(s) without a doc comment", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
