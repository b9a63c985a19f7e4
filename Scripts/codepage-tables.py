#!/usr/bin/env python3
"""Generates the Windows-1251 and Windows-1252 tables of CapitalCore's TextEncoding.swift and the
reference strings of Tests/CapitalCoreTests/TextEncodingTests.swift from Python's own codecs.

    python3 Scripts/codepage-tables.py source   # the two `[UInt16]` tables for bytes 0x80-0xFF
    python3 Scripts/codepage-tables.py tests    # each code page's 0x80-0xFF as Unicode scalar values

A byte the code page leaves undefined (0x98 in 1251; 0x81, 0x8D, 0x8F, 0x90, 0x9D in 1252) is
U+FFFD, as Python's `errors='replace'` decodes it.
"""
import sys

PAGES = [("windows1251", "cp1251"), ("windows1252", "cp1252")]


def scalars(codec):
    out = []
    for byte in range(0x80, 0x100):
        text = bytes([byte]).decode(codec, errors="replace")
        assert len(text) == 1 and ord(text) <= 0xFFFF
        out.append(ord(text))
    return out


def rows(values, indent):
    lines = []
    for start in range(0, 128, 16):
        lines.append(indent + ", ".join(f"0x{v:04X}" for v in values[start:start + 16]) + ",")
    return "\n".join(lines)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "source"
    for index, (name, codec) in enumerate(PAGES):
        values = scalars(codec)
        if index > 0:
            print()
        if mode == "source":
            print(f"    /// Bytes 0x80-0xFF of {codec} (Python's codec; undefined bytes are U+FFFD).")
            print(f"    private static let {name}Table: [UInt16] = [")
            print(rows(values, "        "))
            print("    ]")
        else:
            print(f"    /// Python: bytes(range(0x80, 0x100)).decode('{codec}', errors='replace').")
            print(f"    static let {name}Reference: [UInt32] = [")
            print(rows(values, "        "))
            print("    ]")


if __name__ == "__main__":
    main()
