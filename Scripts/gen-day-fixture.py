#!/usr/bin/env python3
"""Writes Tests/Fixtures/days.csv: a reference table of day numbers, ISO dates and ISO weekdays.

The table comes from Python's `datetime` (an implementation independent of CapitalCore's), so
DayTests can check `Day` against it. Columns:

    number      days since 1970-01-01 (day 0), as `Day.number`
    iso         the proleptic Gregorian date, YYYY-MM-DD
    isoWeekday  Monday = 1 ... Sunday = 7

Rows: every day around the 2000 (leap, divisible by 400) and 2100 (not leap, divisible by 100)
February, plus days drawn with a fixed seed from 0001-01-01 to 9999-12-31, the range `datetime`
covers. The output is deterministic: run it again and the file does not change.

Usage: python3 Scripts/gen-day-fixture.py   (from the package root, or anywhere)
"""

import csv
import datetime
import pathlib
import random

SEED = 20_250_301
RANDOM_DAYS = 1_860
WINDOWS = [
    (datetime.date(1999, 12, 25), datetime.date(2000, 3, 5)),
    (datetime.date(2099, 12, 25), datetime.date(2100, 3, 5)),
]
EPOCH = datetime.date(1970, 1, 1).toordinal()
OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "days.csv"


def main() -> None:
    ordinals = set()
    for first, last in WINDOWS:
        ordinals.update(range(first.toordinal(), last.toordinal() + 1))
    generator = random.Random(SEED)
    low, high = datetime.date.min.toordinal(), datetime.date.max.toordinal()
    ordinals.update([low, high, EPOCH])
    while len(ordinals) < RANDOM_DAYS + sum(b.toordinal() - a.toordinal() + 1 for a, b in WINDOWS):
        ordinals.add(generator.randint(low, high))

    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    with OUTPUT.open("w", newline="", encoding="ascii") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(["number", "iso", "isoWeekday"])
        for ordinal in sorted(ordinals):
            date = datetime.date.fromordinal(ordinal)
            writer.writerow([ordinal - EPOCH, date.isoformat(), date.isoweekday()])
    print(f"wrote {len(ordinals)} days to {OUTPUT}")


if __name__ == "__main__":
    main()
