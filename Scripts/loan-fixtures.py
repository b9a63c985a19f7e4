#!/usr/bin/env python3
"""Writes Tests/Fixtures/loans-numpy.json: annuity loans worked out by numpy-financial and, apart
from it, by Python's `decimal`, the references for capital's loan schedules.

The file is

    {"generator": "Scripts/loan-fixtures.py", "numpy": version, "numpy_financial": version,
     "loans": [one loan a line]}

and each loan is

    {"principal": minor units (int), "rate": annual percent (string, at most 4 decimals),
     "term": months (int),
     "pmt": float, "ipmt": [float per period], "ppmt": [float per period],
     "roundedPayment": int, "finalPayment": int, "totalInterest": int, "interest": [int per period]}

The float part is numpy-financial's, unrounded, in minor units, with the monthly rate
r = float(Decimal(rate) / 100 / 12) and payments at the end of each period, signs turned so
they are positive: pmt = -npf.pmt(r, term, principal), ipmt[k-1] = -npf.ipmt(r, k, term,
principal) and ppmt[k-1] = -npf.ppmt(r, k, term, principal) for k = 1 ... term (at rate 0
numpy's pmt is principal / term and ipmt is 0). Floats are written in repr precision.

The integer part is the rounded schedule a bank would print, computed without numpy in
`decimal` at 50 digits:

    roundedPayment  principal * r / (1 - (1 + r)^-term) with r = Decimal(rate) / 1200
                    (principal / term at rate 0), rounded half-up to a minor unit
    interest[k-1]   balance * Decimal(rate) / 1200 rounded half-up (the product is exact and
                    the division correctly rounded, so an exact half stays a half and rounds up)
    periods 1 ... term-1 repay roundedPayment - interest; the last period repays whatever
    balance is left: finalPayment = balance + interest[term-1]
    totalInterest   the sum of interest

That formula is followed as written even where it goes wrong: where the rounded payment
repays more than principal / term (tiny principals over long terms), the balance goes
negative before the last period and the final payment is negative; the summary counts those.

Loans: hand-written edge cases first (principals 1, 100 and 180 000.00 crossed with rates 0,
0.0001 and 40; the HP 10bII manual's 180 000.00 at 7.75 % over 360 months; the largest principal
at the extreme rates), then random loans drawn with a fixed seed up to LOANS in all:
principals log-uniform from 1.00 to 100 000 000.00; rates about 5 % exactly 0, about 20 % whole
percents 1 ... 40, the rest with 1 to 4 decimals (trailing zeros dropped, never whole) below 40;
terms about 10 % one of 1, 2, 12, 60, 120, 240, 360 months, the rest uniform in 1 ... 360.

After the file the script prints two worked examples for pinning in Swift tests (they are not in
the fixture): the HP 10bII example's rounded payment (1289.54), final payment and total interest,
and an actual/365 schedule (100 000.00 at 12 % over 3 months from 2025-01-15).

Usage: pip install numpy numpy-financial; python3 Scripts/loan-fixtures.py  (deterministic: the
same file every run with the same numpy and numpy-financial; written with numpy 2.4.6 and
numpy-financial 1.0.0)
"""

import datetime
import decimal
import json
import math
import pathlib
import random
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import numpy_financial as npf

SEED = 5
LOANS = 600
MIN_PRINCIPAL = 100  # 1.00
MAX_PRINCIPAL = 10_000_000_000  # 100 000 000.00
MAX_RATE = 40
MAX_TERM = 360
ROUND_TERMS = [1, 2, 12, 60, 120, 240, 360]
PRECISION = 50
OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "loans-numpy.json"
GENERATOR = "Scripts/loan-fixtures.py"

# Hand-written edge cases: (principal, rate, term).
EDGE_CASES = [
    (principal, rate, term)
    for principal in (1, 100, 18_000_000)
    for rate in ("0", "0.0001", "40")
    for term in (1, 360)
] + [
    (18_000_000, "7.75", 360),  # HP 10bII manual
    (MAX_PRINCIPAL, "40", 360),
    (MAX_PRINCIPAL, "0.0001", 360),
    (MAX_PRINCIPAL, "39.9999", 1),
]

CONTEXT = decimal.Context(prec=PRECISION, rounding=ROUND_HALF_UP)
ONE = Decimal(1)


def draw_principal(rng):
    value = round(10 ** rng.uniform(math.log10(MIN_PRINCIPAL), math.log10(MAX_PRINCIPAL)))
    return min(max(value, MIN_PRINCIPAL), MAX_PRINCIPAL)


def draw_rate(rng):
    kind = rng.random()
    if kind < 0.05:
        return "0"
    if kind < 0.25:
        return str(rng.randint(1, MAX_RATE))
    places = rng.randint(1, 4)
    scale = 10 ** places
    while True:
        units = rng.randint(1, MAX_RATE * scale - 1)
        if units % scale:
            break
    whole, fraction = divmod(units, scale)
    return f"{whole}.{fraction:0{places}d}".rstrip("0")


def draw_term(rng):
    if rng.random() < 0.10:
        return rng.choice(ROUND_TERMS)
    return rng.randint(1, MAX_TERM)


def whole(value):
    """Rounded half-up to an integer (an int)."""
    return int(value.quantize(ONE, rounding=ROUND_HALF_UP, context=CONTEXT))


def is_half(value):
    return value - value.to_integral_value(rounding=decimal.ROUND_FLOOR) == Decimal("0.5")


def exact_payment(principal, rate, term):
    """The unrounded annuity payment in Decimal."""
    with decimal.localcontext(CONTEXT):
        if Decimal(rate) == 0:
            return Decimal(principal) / term
        r = Decimal(rate) / 1200
        return principal * r / (1 - (1 + r) ** -term)


def decimal_schedule(principal, rate, term):
    """The bank's rounded schedule (see the module comment) and notes on how it went."""
    with decimal.localcontext(CONTEXT):
        annual = Decimal(rate)
        exact = exact_payment(principal, rate, term)
        payment = whole(exact)
        balance = principal
        interest = []
        went_negative = False
        halves = int(is_half(exact))
        for k in range(1, term + 1):
            owed = balance * annual / 1200
            halves += is_half(owed)
            part = whole(owed)
            interest.append(part)
            if k < term:
                repaid = payment - part
                balance -= repaid
                went_negative |= repaid < 0 or balance < 0
            else:
                final = balance + part
                balance = 0
    return {
        "roundedPayment": payment,
        "finalPayment": final,
        "totalInterest": sum(interest),
        "interest": interest,
    }, {"exact": exact, "wentNegative": went_negative, "halves": halves}


def numpy_schedule(principal, rate, term):
    with decimal.localcontext(CONTEXT):
        r = float(Decimal(rate) / 100 / 12)
    per = np.arange(1, term + 1)
    with np.errstate(divide="ignore", invalid="ignore"):  # rate 0: numpy divides by it, then picks the other branch
        pmt = -npf.pmt(r, term, principal)
        ipmt = -npf.ipmt(r, per, term, principal) + 0.0  # + 0.0 turns rate 0's -0.0 into 0.0
        ppmt = -npf.ppmt(r, per, term, principal) + 0.0
    assert np.isfinite(pmt) and np.isfinite(ipmt).all() and np.isfinite(ppmt).all(), (principal, rate, term)
    return {"pmt": float(pmt), "ipmt": ipmt.tolist(), "ppmt": ppmt.tolist()}


def hp10bii():
    principal, rate, term = 18_000_000, "7.75", 360
    schedule, _ = decimal_schedule(principal, rate, term)
    print(f"HP 10bII: {principal} minor units at {rate} % over {term} months:")
    print(f"  roundedPayment {schedule['roundedPayment']} (manual: 128954), "
          f"finalPayment {schedule['finalPayment']}, totalInterest {schedule['totalInterest']}")


def actual365():
    """100 000.00 at 12 % over 3 months, interest on the actual days since the last date / 365."""
    principal, rate = 10_000_000, "12"
    start = datetime.date(2025, 1, 15)
    dates = [datetime.date(2025, 2, 15), datetime.date(2025, 3, 15), datetime.date(2025, 4, 15)]
    with decimal.localcontext(CONTEXT):
        payment = whole(exact_payment(principal, rate, len(dates)))
        print(f"actual/365: {principal} minor units at {rate} % from {start}, "
              f"payment {payment} (annuity at {rate}/1200 a month, rounded half-up):")
        print("  date        days   payment  interest  principal  balance")
        balance, previous = principal, start
        for k, day in enumerate(dates, 1):
            days = (day - previous).days
            interest = whole(balance * Decimal(rate) * days / 36_500)  # exact product, one division
            paid = payment if k < len(dates) else balance + interest
            repaid = paid - interest
            balance -= repaid
            print(f"  {day}  {days:4d}  {paid:8d}  {interest:8d}  {repaid:9d}  {balance:7d}")
            previous = day


def main():
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    while len(cases) < LOANS:
        cases.append((draw_principal(rng), draw_rate(rng), draw_term(rng)))

    loans, notes = [], []
    for principal, rate, term in cases:
        schedule, note = decimal_schedule(principal, rate, term)
        loan = {"principal": principal, "rate": rate, "term": term}
        loan.update(numpy_schedule(principal, rate, term))
        loan.update(schedule)
        loans.append(loan)
        notes.append(note)

    header = json.dumps({"generator": GENERATOR, "numpy": np.__version__, "numpy_financial": npf.__version__},
                        separators=(",", ":"))
    with OUTPUT.open("w") as out:
        out.write(header[:-1] + ',"loans":[\n')
        out.write(",\n".join(json.dumps(loan, separators=(",", ":"), allow_nan=False) for loan in loans))
        out.write("\n]}\n")

    periods = sum(loan["term"] for loan in loans)
    zero = sum(1 for loan in loans if loan["rate"] == "0")
    integral = sum(1 for loan in loans if loan["rate"] != "0" and "." not in loan["rate"])
    negative = sum(1 for note in notes if note["wentNegative"])
    negative_final = sum(1 for loan in loans if loan["finalPayment"] < 0)
    halves = sum(note["halves"] for note in notes)
    deviation = max(abs(Decimal(loan["pmt"]) - note["exact"]) / note["exact"] for loan, note in zip(loans, notes))
    size = OUTPUT.stat().st_size
    print(f"{len(loans)} loans ({len(EDGE_CASES)} hand-written), {periods} periods, "
          f"{zero} at rate 0, {integral} at whole rates; {size:,} bytes -> {OUTPUT}")
    print(f"{negative} loans repay a negative principal part or go below zero before the last period "
          f"({negative_final} end in a negative final payment); {halves} exact halves rounded up")
    print(f"numpy's pmt is within {float(deviation):.1e} (relative) of the exact Decimal payment")
    print()
    hp10bii()
    actual365()


if __name__ == "__main__":
    main()
