#!/usr/bin/env python3
"""Writes Tests/Fixtures/deposits-reference.json: deposits worked out day by day in exact rational
arithmetic (Python's `fractions`), the reference for capital's `Deposit.events`.

The file is

    {"generator": "Scripts/deposit-fixtures.py", "deposits": [one deposit a line]}

and each deposit is

    {"rate": annual percent (string, at most 4 decimals), "capitalisation": "monthly" |
     "quarterly" | "at-maturity", "opened": ISO day, "maturity": ISO day or null,
     "last": ISO day (events through it), "flows": [[ISO day, minor units], ...] (any order),
     "events": [[kind, ISO day, minor units], ...] with kind "interest" or "payout"}

The reference walks the calendar one day at a time with `datetime.date`, independently of
capital's day numbers and of its segment-by-segment sums:

    balance        the flows up to `opened`, then each later day's flows as the day comes
    capitalisation opened + k months (k = 1, 2, ...; monthly) or + 3k months (quarterly), the
                   day of the month clamped to the month's end (`calendar.monthrange`), and
                   the maturity; only the maturity for "at-maturity"
    accrual        each day d from `opened` on, after d's flows and any interest credited on d,
                   adds Fraction(max(balance, 0) * perMillion, 10^6 * (366 if leap else 365))
    on a capitalisation day, after that day's flows and before its own accrual: the accrued
                   fraction is rounded half up (floor(x + 1/2)), credited if not 0 (an "interest"
                   event) and the accrual restarts; on the maturity day a "payout" event takes the
                   whole balance if it is above 0, and nothing happens afterwards
    events         those on days up to `last`

Deposits: hand-written edge cases first (the 12 % example from DepositTests, month ends, 29
February, leap-year crossings, negative balances, flows before the opening, on and after
maturity, 10^15 at 1000 %, rates of 0 and 0.0001 %, open-ended accounts cut mid-period), then
random ones drawn with a fixed seed up to DEPOSITS in all: opened 2020-2035 (a third of them on
the 28th-31st), terms of 1 day to 10 years (a few up to 30), rates as in loan-fixtures.py up to
40 % (sometimes 0, sometimes up to 1000 %), up to 10 flows from 30 days before the opening to
60 days after maturity, a quarter of them withdrawals, amounts log-uniform from 0.01 to
10^13 minor units (sometimes up to 10^15). Draws whose balance would leave Int64 are drawn again.

Usage: python3 Scripts/deposit-fixtures.py  (standard library only; deterministic)
"""

import calendar
import datetime
import json
import pathlib
import random
from collections import defaultdict
from fractions import Fraction

DEPOSITS = 400
SEED = 20250110
OUT = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "deposits-reference.json"
INT64_MAX = 2**63 - 1


def add_months(day, months):
    zero_based = day.year * 12 + day.month - 1 + months
    year, month = divmod(zero_based, 12)
    month += 1
    return datetime.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def per_million(rate):
    whole, _, fraction = rate.partition(".")
    return int(whole) * 10_000 + int((fraction + "0000")[:4])


def reference(rate, capitalisation, opened, maturity, last, flows):
    """The events through `last` (and the largest balance magnitude seen), one day at a time."""
    if last <= opened:
        return [], 0
    end = min(last, maturity) if maturity else last
    if capitalisation == "at-maturity":
        days = {maturity}
    else:
        step = 1 if capitalisation == "monthly" else 3
        days = set()
        k = 1
        while True:
            day = add_months(opened, step * k)
            if day > end or (maturity and day >= maturity):
                break
            days.add(day)
            k += 1
        if maturity:
            days.add(maturity)
    by_day = defaultdict(int)
    for day, amount in flows:
        by_day[day] += amount
    rate = per_million(rate)
    balance = sum(amount for day, amount in flows if day <= opened)
    largest = abs(balance)
    accrued = Fraction(0)
    events = []
    day = opened
    while day <= end:
        if day > opened:
            balance += by_day[day]
        if day in days:
            interest = (2 * accrued.numerator + accrued.denominator) // (2 * accrued.denominator)
            accrued = Fraction(0)
            if interest:
                balance += interest
                events.append(["interest", day.isoformat(), interest])
            if day == maturity:
                if balance > 0:
                    events.append(["payout", day.isoformat(), balance])
                break
        largest = max(largest, abs(balance))
        year_days = 366 if calendar.isleap(day.year) else 365
        accrued += Fraction(max(balance, 0) * rate, 1_000_000 * year_days)
        day += datetime.timedelta(days=1)
    return events, largest


def entry(rate, capitalisation, opened, maturity, last, flows):
    events, largest = reference(rate, capitalisation, opened, maturity, last, flows)
    if largest > INT64_MAX // 2 or any(abs(amount) > INT64_MAX // 2 for _, _, amount in events):
        return None
    return {
        "rate": rate,
        "capitalisation": capitalisation,
        "opened": opened.isoformat(),
        "maturity": maturity.isoformat() if maturity else None,
        "last": last.isoformat(),
        "flows": [[day.isoformat(), amount] for day, amount in flows],
        "events": events,
    }


def d(text):
    return datetime.date.fromisoformat(text)


def edge_cases():
    million = 100_000_000
    return [
        ("12", "monthly", d("2025-01-10"), d("2026-01-10"), d("2026-02-01"), [(d("2025-01-10"), million)]),
        ("12", "monthly", d("2025-01-31"), d("2025-02-28"), d("2025-03-31"), [(d("2025-01-31"), million)]),
        ("12", "monthly", d("2025-01-31"), d("2025-12-31"), d("2025-12-31"), [(d("2025-01-31"), million)]),
        ("7.5", "monthly", d("2024-02-29"), d("2025-03-01"), d("2025-03-01"), [(d("2024-02-29"), 5_000_000)]),
        ("9.9999", "quarterly", d("2027-11-30"), d("2028-11-30"), d("2029-01-01"), [(d("2027-11-30"), 123_456_789)]),
        ("15", "at-maturity", d("2027-07-01"), d("2028-07-01"), d("2028-07-01"), [(d("2027-07-01"), million)]),
        ("15", "at-maturity", d("2027-07-01"), d("2028-07-01"), d("2028-06-30"), [(d("2027-07-01"), million)]),
        ("10", "monthly", d("2025-03-01"), d("2025-09-01"), d("2025-09-01"),
         [(d("2025-03-01"), 1_000_000), (d("2025-04-15"), -3_000_000), (d("2025-06-10"), 5_000_000)]),
        ("10", "monthly", d("2025-03-01"), None, d("2025-08-20"),
         [(d("2025-02-20"), 1_000_000), (d("2025-03-15"), 200_000), (d("2025-05-01"), -50_000)]),
        ("10", "quarterly", d("2025-03-01"), None, d("2026-03-01"), [(d("2025-03-01"), 1_000_000)]),
        ("1000", "monthly", d("2025-01-01"), d("2026-01-01"), d("2026-01-01"), [(d("2025-01-01"), 10**15)]),
        ("1000", "at-maturity", d("2025-01-01"), d("2026-01-01"), d("2026-01-01"), [(d("2025-01-01"), 10**15)]),
        ("0", "monthly", d("2025-01-01"), d("2025-06-01"), d("2025-06-01"), [(d("2025-01-01"), 10_000)]),
        ("0.0001", "at-maturity", d("2025-01-01"), d("2025-01-02"), d("2025-01-02"), [(d("2025-01-01"), 1)]),
        ("20", "quarterly", d("2025-01-15"), d("2025-05-15"), d("2025-12-31"),
         [(d("2025-05-15"), 700_000), (d("2025-01-15"), 1_000_000), (d("2025-06-01"), 900_000), (d("2025-02-01"), -1_000_000)]),
        ("5", "monthly", d("2025-01-15"), d("2025-04-15"), d("2025-04-15"),
         [(d("2025-01-15"), 100_000), (d("2025-01-15"), -200_000), (d("2025-03-01"), 50_000)]),
    ]


def random_rate(rng):
    roll = rng.random()
    if roll < 0.05:
        return "0"
    if roll < 0.10:
        return str(rng.randint(41, 1000))
    if roll < 0.30:
        return str(rng.randint(1, 40))
    while True:
        places = rng.randint(1, 4)
        text = f"{rng.uniform(0, 40):.{places}f}".rstrip("0")
        if not text.endswith("."):
            return text


def random_amount(rng, largest):
    return max(1, int(10 ** rng.uniform(0, largest)))


def random_deposit(rng):
    opened = d("2020-01-01") + datetime.timedelta(days=rng.randrange(16 * 365))
    if rng.random() < 1 / 3:
        month_end = calendar.monthrange(opened.year, opened.month)[1]
        opened = opened.replace(day=rng.randint(min(28, month_end), month_end))
    capitalisation = rng.choice(["monthly", "quarterly", "at-maturity"])
    if capitalisation != "at-maturity" and rng.random() < 0.2:
        maturity = None
    elif rng.random() < 0.4:
        maturity = add_months(opened, rng.choice([1, 2, 3, 6, 12, 13, 18, 24, 36, 60]))
    else:
        maturity = opened + datetime.timedelta(days=rng.randint(1, 30 * 365 if rng.random() < 0.03 else 10 * 365))
    horizon = maturity or opened + datetime.timedelta(days=rng.randint(1, 5 * 365))
    roll = rng.random()
    if roll < 0.6:
        last = horizon + datetime.timedelta(days=rng.randint(0, 60))
    else:
        last = opened + datetime.timedelta(days=rng.randint(0, (horizon - opened).days))
    largest = 15 if rng.random() < 0.05 else 13
    flows = []
    if rng.random() < 0.9:
        flows.append((opened, random_amount(rng, largest)))
    span = (horizon - opened).days + 90
    for _ in range(rng.randint(0, 10)):
        day = opened + datetime.timedelta(days=rng.randrange(span) - 30)
        amount = random_amount(rng, largest)
        flows.append((day, -amount if rng.random() < 0.25 else amount))
    rng.shuffle(flows)
    return random_rate(rng), capitalisation, opened, maturity, last, flows


def main():
    rng = random.Random(SEED)
    deposits = [entry(*case) for case in edge_cases()]
    assert all(deposits), "an edge case leaves Int64"
    redrawn = 0
    while len(deposits) < DEPOSITS:
        drawn = entry(*random_deposit(rng))
        if drawn is None:
            redrawn += 1
        else:
            deposits.append(drawn)
    lines = ",\n".join("    " + json.dumps(deposit, separators=(",", ":")) for deposit in deposits)
    OUT.write_text('{"generator": "Scripts/deposit-fixtures.py", "deposits": [\n' + lines + "\n]}\n")
    events = sum(len(deposit["events"]) for deposit in deposits)
    print(f"wrote {OUT.name}: {len(deposits)} deposits, {events} events ({redrawn} draws past Int64 redrawn)")


if __name__ == "__main__":
    main()
