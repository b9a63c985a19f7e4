#!/usr/bin/env python3
"""Writes a batch of purchase scenarios for `capital scenario eval` (issue 24's measurements).

    Scripts/make-scenario-batch.py ROWS OUT.csv [--loans]

Rows of name,price,date: prices 1 000–3 000 000 (whole roubles), days April–December 2025, the
same rows for the same arguments (seeded). With --loans each row also has down, loan_rate and
loan_term (60 months). See docs/performance.md, "Batch scenarios, file to file".
"""
import datetime
import random
import sys


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    loans = "--loans" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__)
    rows, out = int(args[0]), args[1]
    rng = random.Random(24)
    first = datetime.date(2025, 4, 1).toordinal()
    last = datetime.date(2025, 12, 31).toordinal()
    with open(out, "w") as f:
        f.write("name,price,date" + (",down,loan_rate,loan_term" if loans else "") + "\n")
        for i in range(rows):
            price = rng.randint(1_000, 3_000_000)
            day = datetime.date.fromordinal(rng.randint(first, last)).isoformat()
            line = f"plan {i + 1},{price},{day}"
            if loans:
                line += f",{price // 5},{rng.choice(['9.9', '12.5', '14', '18.9'])},60"
            f.write(line + "\n")


if __name__ == "__main__":
    main()
