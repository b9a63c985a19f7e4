#!/usr/bin/env python3
"""Reference values for exchange-rate arithmetic, from Python's decimal module (an independent
implementation of exact decimal arithmetic and half-even rounding).

Writes Tests/Fixtures/rates/conversions.csv (an amount in minor units of one currency converted
at a rate to minor units of another) and Tests/Fixtures/rates/rounding.csv (a fraction rounded
to 10 significant digits). Run: python3 Scripts/rate-references.py
"""
import random
from decimal import Decimal, getcontext, ROUND_HALF_EVEN
from pathlib import Path

getcontext().prec = 80
random.seed(19)
out = Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "rates"
out.mkdir(parents=True, exist_ok=True)

rows = ["amount,coefficient,scale,per,from_exponent,to_exponent,expected"]
specials = [(1, 925012, 4, 1, 2, 2), (-1, 925012, 4, 1, 2, 2), (5, 1, 1, 1, 2, 2), (15, 1, 1, 1, 2, 2), (25, 1, 1, 1, 2, 2),
            (-25, 1, 1, 1, 2, 2), (1, 5, 1, 1, 0, 0), (3, 5, 1, 1, 0, 0), (100, 2504, 2, 10, 2, 2), (123456789, 1, 0, 100, 2, 0),
            (7, 1234567891, 9, 1, 3, 2), (10**15, 9999999999, 0, 1, 2, 2)]
for amount, coefficient, scale, per, e_from, e_to in specials:
    rows.append((amount, coefficient, scale, per, e_from, e_to))
for _ in range(2000):
    amount = random.choice([random.randint(-10**6, 10**6), random.randint(-10**12, 10**12), random.randint(-99, 99)])
    digits = random.randint(1, 10)
    coefficient = random.randint(10 ** (digits - 1), 10**digits - 1)
    scale = random.randint(0, 12)
    per = random.choice([1, 1, 1, 10, 100, 1000, 7])
    e_from = random.choice([0, 2, 2, 2, 3])
    e_to = random.choice([0, 2, 2, 2, 3])
    rows.append((amount, coefficient, scale, per, e_from, e_to))
lines = [rows[0]]
for amount, coefficient, scale, per, e_from, e_to in rows[1:]:
    rate = Decimal(coefficient).scaleb(-scale) / Decimal(per)
    major = Decimal(amount).scaleb(-e_from) * rate
    minor = major.scaleb(e_to).quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
    if abs(minor) >= 2**63:
        continue
    lines.append(f"{amount},{coefficient},{scale},{per},{e_from},{e_to},{minor}")
(out / "conversions.csv").write_text("\n".join(lines) + "\n")

lines = ["numerator,denominator,coefficient,scale"]
cases = [(1, 3), (2, 3), (10000, 10871), (108710, 16089000), (1, 1), (10**12, 7), (5, 1), (123456789015, 10), (123456789025, 10)]
for _ in range(1000):
    cases.append((random.randint(1, 10**random.randint(1, 18)), random.randint(1, 10**random.randint(1, 18))))
for numerator, denominator in cases:
    value = Decimal(numerator) / Decimal(denominator)
    exponent = value.adjusted()  # the power of ten of the first digit
    quantum = Decimal(1).scaleb(exponent - 9)
    if exponent - 9 < -18:
        quantum = Decimal(1).scaleb(-18)
    rounded = value.quantize(quantum, rounding=ROUND_HALF_EVEN)
    if rounded == 0:
        continue
    rounded = rounded.normalize()
    sign, digits, exp = rounded.as_tuple()
    coefficient = int("".join(map(str, digits)))
    if exp > 0:
        coefficient *= 10**exp
        exp = 0
    if coefficient >= 2**63:
        continue
    lines.append(f"{numerator},{denominator},{coefficient},{-exp}")
(out / "rounding.csv").write_text("\n".join(lines) + "\n")
print(f"wrote {out}/conversions.csv and rounding.csv")
