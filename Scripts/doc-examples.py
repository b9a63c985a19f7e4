#!/usr/bin/env python3
"""The docs' checked examples: every fenced block after a `<!-- checked -->` line in README.md and
docs/*.md holds `$ capital ARGS` lines, each followed by what it prints (stdout, then stderr).

    Scripts/doc-examples.py            list the examples that differ from what the binary prints
    Scripts/doc-examples.py --update   rewrite their outputs from the binary

Each command runs as DocExamplesTests runs it: from the repository's root, on a fresh copy of
the sample household's database (CAPITAL_DB), NO_COLOR set. A block whose output ends with a
line `…` shows only the first lines: those are compared and kept. Build first (`swift build`).
"""
import os, pathlib, shlex, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = ROOT / ".build" / "debug" / "capital"


def run(args, db):
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS",)}
    env.update({"CAPITAL_DB": str(db), "NO_COLOR": "1", "HOME": str(db.parent)})
    done = subprocess.run([str(BINARY)] + args, cwd=ROOT, env=env, capture_output=True, text=True)
    lines = (done.stdout + done.stderr).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def process(path, update, folder):
    lines = path.read_text().split("\n")
    out, changed, index = [], [], 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        if line.strip() != "<!-- checked -->" or index >= len(lines) or not lines[index].startswith("```"):
            continue
        out.append(lines[index])
        index += 1
        while index < len(lines) and not lines[index].startswith("```"):
            command = lines[index]
            out.append(command)
            index += 1
            expected = []
            while index < len(lines) and not lines[index].startswith("```") and not lines[index].startswith("$ capital "):
                expected.append(lines[index])
                index += 1
            if not command.startswith("$ capital "):
                out.extend(expected)
                continue
            db = folder / f"db-{len(changed)}-{index}.sqlite"
            subprocess.run([str(BINARY), "--db", str(db), "import", "samples/household.yaml"], cwd=ROOT, check=True, capture_output=True)
            printed = run(shlex.split(command[len("$ capital "):]), db)
            truncated = bool(expected) and expected[-1] == "…"
            shown = printed[: len(expected) - 1] + ["…"] if truncated else printed
            if [e.rstrip() for e in expected] != shown:
                changed.append(f"{path.relative_to(ROOT)}: {command}")
            out.extend(shown if update else expected)
    if update:
        path.write_text("\n".join(out))
    return changed


def main():
    update = "--update" in sys.argv[1:]
    if not BINARY.exists():
        sys.exit(f"{BINARY}: build first (swift build)")
    files = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    with tempfile.TemporaryDirectory() as tmp:
        changed = [c for f in files for c in process(f, update, pathlib.Path(tmp))]
    for line in changed:
        print(("updated " if update else "differs ") + line)
    if changed and not update:
        sys.exit(1)


if __name__ == "__main__":
    main()
