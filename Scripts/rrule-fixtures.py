#!/usr/bin/env python3
"""Writes Tests/Fixtures/rrule.json: recurrence rules expanded by python-dateutil, the reference
for capital's RRULE engine (RecurrenceFixtureTests expands every rule and must agree date for date).

Each entry is

    {"rule": RRULE text, "start": "YYYY-MM-DD", "windowStart": ..., "windowEnd": ..., "dates": [...]}

where `dates` are dateutil's occurrences of `rrulestr(rule, dtstart=start)` from windowStart to
windowEnd, both inclusive (what `rrule.between(windowStart, windowEnd, inc=True)` returns). A
window holding more than MAX_DATES occurrences is cut short: windowEnd becomes the last date kept.

Rules are drawn with a fixed seed across every part capital supports (FREQ DAILY/WEEKLY/MONTHLY/
YEARLY, INTERVAL, COUNT, UNTIL in its three spellings, BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY and
BYDAY with negative values and ordinals, BYSETPOS, WKST), only in combinations capital accepts
(RFC 5545's: no BYWEEKNO outside YEARLY, no BYYEARDAY outside YEARLY, no BYMONTHDAY with WEEKLY, no
BYDAY ordinal with DAILY or WEEKLY or next to BYWEEKNO, MONTHLY ordinals within ±5, never COUNT with
UNTIL). Then Tests/Fixtures/rrule-extended.json: the combinations beyond RFC 5545 that dateutil
expands (see `extended`). Starts favour awkward days: the 28th–31st, 29 February, the turn of the year. Part names
and order vary, and some rules are lower case, to exercise the parser too. Hand-written edge cases
come first.

dateutil iterates an empty rule up to the year 9999 before it gives up; that takes seconds for a
DAILY rule. The windows end before 2200, so the script lowers dateutil's year limit to
YEAR_LIMIT (> every window end): occurrences before the limit, and so every expansion written here,
are unchanged; only the search for occurrences that never come stops sooner.

Usage: pip install python-dateutil; python3 Scripts/rrule-fixtures.py  (deterministic: the same
file every run)
"""

import datetime
import json
import pathlib
import random

import dateutil
import dateutil.rrule as rrule_module
from dateutil.rrule import rrulestr

SEED = 5545
RANDOM_RULES = 2_400
MAX_DATES = 400
YEAR_LIMIT = 2300
KEEP_EMPTY = 0.15
OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "rrule.json"

WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

# Hand-written edge cases: (rule, start, windowStart, windowEnd).
EDGE_CASES = [
    ("FREQ=MONTHLY;BYDAY=-1FR", "2025-01-01", "2025-01-01", "2026-12-31"),
    ("FREQ=MONTHLY;BYMONTHDAY=31", "2025-01-31", "2025-01-01", "2026-12-31"),
    ("FREQ=MONTHLY", "2025-01-31", "2025-01-01", "2026-12-31"),
    ("FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", "2024-01-31", "2024-01-01", "2026-12-31"),
    ("FREQ=YEARLY", "2024-02-29", "2024-01-01", "2040-12-31"),
    ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1", "2024-02-29", "2024-01-01", "2032-12-31"),
    ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "2024-01-01", "2024-01-01", "2060-12-31"),
    ("FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO", "2014-12-25", "2014-12-25", "2030-12-31"),
    ("FREQ=YEARLY;BYWEEKNO=1,-1;WKST=SU", "2019-12-20", "2019-12-20", "2031-01-10"),
    ("FREQ=YEARLY;BYWEEKNO=53;WKST=SU", "2010-01-01", "2010-01-01", "2040-12-31"),
    ("FREQ=YEARLY;BYWEEKNO=52,53;BYDAY=SA,SU;WKST=SU", "2015-12-01", "2015-12-01", "2035-12-31"),
    ("FREQ=YEARLY;BYYEARDAY=-1,1,60,366", "2019-06-01", "2019-06-01", "2030-12-31"),
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;WKST=SU", "2025-01-01", "2025-01-01", "2025-12-31"),
    ("FREQ=WEEKLY;BYDAY=MO,FR;BYSETPOS=1", "2025-01-01", "2025-01-01", "2025-03-31"),
    ("FREQ=WEEKLY;BYDAY=TU,SU;WKST=SU;INTERVAL=3", "2024-12-30", "2024-12-01", "2026-01-31"),
    ("FREQ=DAILY;COUNT=10", "2025-01-01", "2025-01-05", "2025-12-31"),
    ("FREQ=DAILY;UNTIL=20250110", "2025-01-01", "2025-01-05", "2025-12-31"),
    ("FREQ=MONTHLY;BYDAY=MO,-1FR", "2025-01-01", "2025-01-01", "2025-12-31"),
    ("FREQ=MONTHLY;COUNT=5;BYMONTHDAY=31", "2025-01-31", "2025-06-01", "2027-12-31"),
    ("FREQ=MONTHLY;COUNT=3", "2025-01-15", "2025-03-20", "2025-12-31"),
    ("FREQ=WEEKLY;COUNT=4;BYDAY=TU,TH", "2025-01-01", "2025-01-09", "2025-12-31"),
    ("FREQ=YEARLY;BYDAY=20MO", "2025-01-01", "2025-01-01", "2035-12-31"),
    ("FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3,10", "2025-01-01", "2025-01-01", "2035-12-31"),
    ("FREQ=DAILY;INTERVAL=10;BYMONTHDAY=1,11,21,31", "2025-01-01", "2025-01-01", "2030-12-31"),
]


def iso(day):
    return day.strftime("%Y-%m-%d")


def draw_start(rng):
    kind = rng.random()
    year = rng.randint(1995, 2035)
    if kind < 0.30:  # the 28th to the 31st
        month = rng.randint(1, 12)
        last = (datetime.date(year + (month == 12), month % 12 + 1, 1) - datetime.timedelta(days=1)).day
        return datetime.date(year, month, rng.randint(28, last))
    if kind < 0.40:  # 29 February
        while not (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)):
            year += 1
        return datetime.date(year, 2, 29)
    if kind < 0.60:  # around the turn of a year
        return datetime.date(year, 12, 24) + datetime.timedelta(days=rng.randint(0, 14))
    return datetime.date(year, 1, 1) + datetime.timedelta(days=rng.randint(0, 364))


def some(rng, values, low=1, high=3):
    return rng.sample(values, rng.randint(low, min(high, len(values))))


def signed(rng, limit, negative_share=0.35):
    value = rng.randint(1, limit)
    return -value if rng.random() < negative_share else value


def joined(values):
    return ",".join(str(v) for v in values)


def draw_byday(rng, ordinals, limit):
    """Plain weekdays, or ordinals within ±limit (rarely a mix, where dateutil intersects)."""
    days = some(rng, WEEKDAYS, 1, 4)
    if not ordinals or rng.random() < 0.4:
        return days
    entries = [f"{signed(rng, limit, 0.45)}{d}" for d in days[:2]]
    if rng.random() < 0.1:
        entries.append(rng.choice(WEEKDAYS))
    return entries


def draw_rule(rng, start):
    """One rule as a list of (name, value) parts, valid for capital."""
    freq = rng.choices(["YEARLY", "MONTHLY", "WEEKLY", "DAILY"], [30, 30, 20, 20])[0]
    parts = [("FREQ", freq)]
    if rng.random() < 0.45:
        top = {"YEARLY": 4, "MONTHLY": 18, "WEEKLY": 4, "DAILY": 12}[freq]
        parts.append(("INTERVAL", str(rng.randint(1, top))))
    end = rng.random()
    if end < 0.30:
        parts.append(("COUNT", str(rng.randint(1, 60))))
    elif end < 0.55:
        until = start + datetime.timedelta(days=rng.randint(-5, 4_000))
        spelling = rng.random()
        if spelling < 0.7:
            parts.append(("UNTIL", until.strftime("%Y%m%d")))
        elif spelling < 0.85:
            parts.append(("UNTIL", until.strftime("%Y%m%d") + rng.choice(["T000000", "T235959", "T120000"])))
        else:
            parts.append(("UNTIL", iso(until)))

    months = list(range(1, 13))
    if freq == "YEARLY":
        weekno = rng.random() < 0.35
        if rng.random() < 0.45:
            parts.append(("BYMONTH", joined(some(rng, months, 1, 4))))
        if weekno:
            parts.append(("BYWEEKNO", joined([signed(rng, 53) for _ in range(rng.randint(1, 3))])))
        if rng.random() < 0.2:
            parts.append(("BYYEARDAY", joined([signed(rng, 366, 0.4) for _ in range(rng.randint(1, 4))])))
        if rng.random() < 0.35:
            parts.append(("BYMONTHDAY", joined([signed(rng, 31) for _ in range(rng.randint(1, 4))])))
        if rng.random() < 0.4:
            has_month = any(name == "BYMONTH" for name, _ in parts)
            parts.append(("BYDAY", ",".join(draw_byday(rng, not weekno, 5 if has_month else 53))))
        if rng.random() < 0.2:
            parts.append(("BYSETPOS", joined([signed(rng, rng.choice([3, 10, 60, 366]), 0.5) for _ in range(rng.randint(1, 3))])))
        if weekno or rng.random() < 0.2:
            parts.append(("WKST", rng.choice(WEEKDAYS)))
    elif freq == "MONTHLY":
        if rng.random() < 0.25:
            parts.append(("BYMONTH", joined(some(rng, months, 1, 6))))
        if rng.random() < 0.45:
            parts.append(("BYMONTHDAY", joined([signed(rng, 31) for _ in range(rng.randint(1, 4))])))
        if rng.random() < 0.45:
            parts.append(("BYDAY", ",".join(draw_byday(rng, True, 5))))
        if rng.random() < 0.25:
            parts.append(("BYSETPOS", joined([signed(rng, rng.choice([2, 5, 31]), 0.5) for _ in range(rng.randint(1, 3))])))
        if rng.random() < 0.15:
            parts.append(("WKST", rng.choice(WEEKDAYS)))
    elif freq == "WEEKLY":
        if rng.random() < 0.2:
            parts.append(("BYMONTH", joined(some(rng, months, 1, 6))))
        if rng.random() < 0.65:
            parts.append(("BYDAY", ",".join(some(rng, WEEKDAYS, 1, 5))))
        if rng.random() < 0.25:
            parts.append(("BYSETPOS", joined([signed(rng, rng.choice([2, 7]), 0.5) for _ in range(rng.randint(1, 2))])))
        if rng.random() < 0.5:
            parts.append(("WKST", rng.choice(WEEKDAYS)))
    else:
        if rng.random() < 0.3:
            parts.append(("BYMONTH", joined(some(rng, months, 1, 6))))
        if rng.random() < 0.3:
            parts.append(("BYMONTHDAY", joined([signed(rng, 31) for _ in range(rng.randint(1, 5))])))
        if rng.random() < 0.3:
            parts.append(("BYDAY", ",".join(some(rng, WEEKDAYS, 1, 5))))
        if rng.random() < 0.1:
            parts.append(("BYSETPOS", joined(rng.sample([1, -1, 2, -2], rng.randint(1, 2)))))
        if rng.random() < 0.1:
            parts.append(("WKST", rng.choice(WEEKDAYS)))
    return parts


def spell(rng, parts):
    """RRULE text for the parts, sometimes shuffled, prefixed or in lower case."""
    parts = list(parts)
    if rng.random() < 0.3:
        rng.shuffle(parts)
    text = ";".join(f"{name}={value}" for name, value in parts)
    if rng.random() < 0.1:
        text = "RRULE:" + text
    if rng.random() < 0.1:
        text = text.lower()
    return text


def draw_window(rng, start, parts):
    """A window near the start (before it too), long enough for the rule's frequency."""
    freq = parts[0][1]
    span = {"YEARLY": (1_500, 9_000), "MONTHLY": (200, 4_000), "WEEKLY": (30, 1_500), "DAILY": (10, 900)}[freq]
    counted = any(name == "COUNT" for name, _ in parts)
    shift = rng.random()
    if shift < 0.4:
        offset = 0
    elif shift < 0.6:
        offset = rng.randint(-40, 40)
    else:
        offset = rng.randint(0, 400 if counted else 3_000)
    window_start = start + datetime.timedelta(days=offset)
    return window_start, window_start + datetime.timedelta(days=rng.randint(*span))


def expand(rule, start, window_start, window_end):
    """dateutil's occurrences in [window_start, window_end], at most MAX_DATES of them."""
    dates = []
    begin = datetime.datetime.combine(window_start, datetime.time())
    finish = datetime.datetime.combine(window_end, datetime.time())
    for occurrence in rrulestr(rule, dtstart=datetime.datetime.combine(start, datetime.time())):
        if occurrence > finish:
            break
        if occurrence >= begin:
            dates.append(iso(occurrence))
            if len(dates) == MAX_DATES:
                window_end = occurrence.date()
                break
    return dates, window_end


def entry(rule, start, window_start, window_end, dates):
    return {"rule": rule, "start": iso(start), "windowStart": iso(window_start), "windowEnd": iso(window_end), "dates": dates}


def draw_entries(rng, edge_cases, count, draw):
    """The edge cases, then `count` rules drawn by `draw`, each with dateutil's dates."""
    day = datetime.date.fromisoformat
    entries = []
    for rule, start, first, last in edge_cases:
        dates, window_end = expand(rule, day(start), day(first), day(last))
        entries.append(entry(rule, day(start), day(first), window_end, dates))
    for _ in range(count):
        while True:
            start = draw_start(rng)
            parts = draw(rng, start)
            rule = spell(rng, parts)
            window_start, window_end = draw_window(rng, start, parts)
            assert window_end.year < YEAR_LIMIT
            try:
                dates, window_end = expand(rule, start, window_start, window_end)
            except IndexError:
                continue  # dateutil's own bug on some ordinals past a month's weeks: no reference
            # Keep some rules with no occurrence in their window, redraw most.
            if dates or rng.random() < KEEP_EMPTY:
                break
        entries.append(entry(rule, start, window_start, window_end, dates))
    return entries


def write(path, entries):
    with path.open("w") as out:
        out.write("[\n")
        out.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in entries))
        out.write("\n]\n")


def main():
    assert dateutil.__version__.startswith("2."), dateutil.__version__
    rrule_module.datetime.MAXYEAR = YEAR_LIMIT  # see the module comment: only ends empty searches sooner
    entries = draw_entries(random.Random(SEED), EDGE_CASES, RANDOM_RULES, draw_rule)
    write(OUTPUT, entries)
    total = sum(len(e["dates"]) for e in entries)
    empty = sum(1 for e in entries if not e["dates"])
    print(f"{len(entries)} rules, {total} dates ({empty} rules with none in their window) -> {OUTPUT}")


# Rules RFC 5545 does not allow but python-dateutil expands, with its meaning (issue 17, case 13):
# BYWEEKNO or BYYEARDAY with DAILY, WEEKLY or MONTHLY, BYMONTHDAY with WEEKLY, ordinal weekdays with
# DAILY or WEEKLY (dateutil drops the ordinal) or beside BYWEEKNO, COUNT=0 and an UNTIL before the
# start (no occurrences). Written to EXTENDED_OUTPUT so that rrule.json stays as it was.
EXTENDED_OUTPUT = OUTPUT.with_name("rrule-extended.json")
EXTENDED_SEED = 20_250_405
EXTENDED_RULES = 900
EXTENDED_EDGE_CASES = [
    ("FREQ=DAILY;BYWEEKNO=1", "2024-12-20", "2024-12-20", "2026-01-20"),
    ("FREQ=DAILY;BYWEEKNO=-1;WKST=SU", "2020-12-01", "2020-12-01", "2023-01-31"),
    ("FREQ=WEEKLY;BYWEEKNO=20;BYDAY=MO,FR", "2025-01-01", "2025-01-01", "2030-12-31"),
    ("FREQ=MONTHLY;BYWEEKNO=1,53", "2014-12-01", "2014-12-01", "2027-01-31"),
    ("FREQ=DAILY;BYYEARDAY=1,-1", "2024-12-25", "2024-12-25", "2027-01-05"),
    ("FREQ=WEEKLY;BYYEARDAY=1,2,3,-1", "2024-12-30", "2024-12-01", "2027-01-31"),
    ("FREQ=WEEKLY;BYYEARDAY=-365,-366;BYDAY=MO,TU,WE,TH,FR,SA,SU", "2023-12-25", "2023-12-25", "2029-01-10"),
    ("FREQ=MONTHLY;BYYEARDAY=60,-306", "2024-01-15", "2024-01-01", "2030-12-31"),
    ("FREQ=WEEKLY;BYMONTHDAY=1,15,-1", "2025-01-01", "2025-01-01", "2025-12-31"),
    ("FREQ=WEEKLY;INTERVAL=2;BYMONTHDAY=13;BYDAY=FR", "2025-01-01", "2025-01-01", "2035-12-31"),
    ("FREQ=DAILY;BYDAY=1MO,-1FR", "2025-01-01", "2025-01-01", "2025-03-31"),
    ("FREQ=WEEKLY;BYDAY=2TU", "2025-01-01", "2025-01-01", "2025-06-30"),
    ("FREQ=YEARLY;BYWEEKNO=10;BYDAY=1MO", "2025-01-01", "2025-01-01", "2040-12-31"),
    ("FREQ=DAILY;COUNT=0", "2025-01-01", "2025-01-01", "2025-12-31"),
    ("FREQ=MONTHLY;UNTIL=20241231", "2025-01-01", "2024-01-01", "2026-12-31"),
    ("FREQ=WEEKLY;UNTIL=20250101", "2025-01-02", "2025-01-01", "2025-12-31"),
]


def draw_extended(rng, start):
    """A rule using at least one of the combinations above."""
    freq = rng.choices(["YEARLY", "MONTHLY", "WEEKLY", "DAILY"], [10, 30, 30, 30])[0]
    parts = [("FREQ", freq)]
    if rng.random() < 0.35:
        parts.append(("INTERVAL", str(rng.randint(1, {"YEARLY": 3, "MONTHLY": 6, "WEEKLY": 4, "DAILY": 9}[freq]))))
    end = rng.random()
    if end < 0.2:
        parts.append(("COUNT", str(rng.randint(0, 40))))
    elif end < 0.4:
        parts.append(("UNTIL", (start + datetime.timedelta(days=rng.randint(-60, 3_000))).strftime("%Y%m%d")))
    kinds = rng.sample(["weekno", "yearday", "monthday", "ordinal"], rng.randint(1, 2))
    if rng.random() < 0.2:
        parts.append(("BYMONTH", joined(some(rng, list(range(1, 13)), 1, 5))))
    if "weekno" in kinds:
        parts.append(("BYWEEKNO", joined([signed(rng, 53) for _ in range(rng.randint(1, 4))])))
    if "yearday" in kinds:
        parts.append(("BYYEARDAY", joined([signed(rng, 366, 0.4) for _ in range(rng.randint(1, 6))])))
    if "monthday" in kinds or (freq == "WEEKLY" and rng.random() < 0.3):
        parts.append(("BYMONTHDAY", joined([signed(rng, 31) for _ in range(rng.randint(1, 4))])))
    if "ordinal" in kinds:
        limit = 5 if freq == "MONTHLY" else 53
        parts.append(("BYDAY", ",".join(f"{signed(rng, limit, 0.4)}{d}" for d in some(rng, WEEKDAYS, 1, 3))))
    elif rng.random() < 0.35:
        parts.append(("BYDAY", ",".join(some(rng, WEEKDAYS, 1, 5))))
    if rng.random() < 0.15:
        parts.append(("BYSETPOS", joined(rng.sample([1, -1, 2, -2, 3], rng.randint(1, 2)))))
    if rng.random() < 0.4:
        parts.append(("WKST", rng.choice(WEEKDAYS)))
    return parts


def extended():
    entries = draw_entries(random.Random(EXTENDED_SEED), EXTENDED_EDGE_CASES, EXTENDED_RULES, draw_extended)
    write(EXTENDED_OUTPUT, entries)
    total = sum(len(e["dates"]) for e in entries)
    print(f"{len(entries)} rules beyond RFC 5545, {total} dates -> {EXTENDED_OUTPUT}")


# Rule sets as calendar programs export them (RRULE lines plus RDATE, EXDATE and EXRULE), expanded
# by `rrulestr(text, forceset=True)`: Tests/Fixtures/rrule-sets.json, each set written as capital
# writes it, its parts on one line separated by spaces (dateutil is given them one per line).
SETS_OUTPUT = OUTPUT.with_name("rrule-sets.json")
SETS_SEED = 1_000_003
SET_RULES = 300


def compact(day):
    return day.strftime("%Y%m%d")


def draw_set(rng, start):
    """The parts of one set: one or two RRULEs (or none, RDATEs only), RDATEs, EXDATEs, EXRULEs."""
    lines = []
    for _ in range(rng.choices([0, 1, 2], [1, 8, 3])[0]):
        parts = draw_rule(rng, start) if rng.random() < 0.7 else draw_extended(rng, start)
        lines.append("RRULE:" + ";".join(f"{name}={value}" for name, value in parts))
    near = lambda: start + datetime.timedelta(days=rng.randint(-20, 400))
    rdates = sorted({near() for _ in range(rng.randint(0 if lines else 1, 5))})
    if rdates:
        lines.append("RDATE:" + ",".join(compact(d) for d in rdates))
    exdates = sorted({near() for _ in range(rng.randint(0, 4))})
    if exdates:
        lines.append("EXDATE:" + ",".join(compact(d) for d in exdates))
    if rng.random() < 0.35:
        parts = draw_rule(rng, start)
        lines.append("EXRULE:" + ";".join(f"{name}={value}" for name, value in parts))
    if rng.random() < 0.2:
        lines.insert(0, "DTSTART:" + compact(start))
    rng.shuffle(lines) if rng.random() < 0.2 else None
    return lines


def expand_set(lines, start, window_start, window_end):
    begin = datetime.datetime.combine(window_start, datetime.time())
    finish = datetime.datetime.combine(window_end, datetime.time())
    text = "\n".join(lines)
    given = any(line.startswith("DTSTART") for line in lines)
    ruleset = rrulestr(text, forceset=True) if given else rrulestr(text, dtstart=datetime.datetime.combine(start, datetime.time()), forceset=True)
    return [iso(o) for o in ruleset.between(begin, finish, inc=True)][:MAX_DATES]


def sets():
    rng = random.Random(SETS_SEED)
    entries = []
    while len(entries) < SET_RULES:
        start = draw_start(rng)
        lines = draw_set(rng, start)
        window_start = start + datetime.timedelta(days=rng.randint(-30, 60))
        window_end = window_start + datetime.timedelta(days=rng.randint(60, 1_500))
        try:
            dates = expand_set(lines, start, window_start, window_end)
        except (IndexError, ValueError):
            continue
        if len(dates) == MAX_DATES:
            window_end = datetime.date.fromisoformat(dates[-1])
        entries.append(entry(" ".join(lines), start, window_start, window_end, dates))
    write(SETS_OUTPUT, entries)
    print(f"{len(entries)} rule sets, {sum(len(e['dates']) for e in entries)} dates -> {SETS_OUTPUT}")


if __name__ == "__main__":
    main()
    extended()
    sets()
