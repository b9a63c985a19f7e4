#!/usr/bin/env python3
"""Writes Tests/Fixtures/scenario-output/plans.csv: 400 varied scenarios (cash, loans, instalments,
recurring costs, income changes, sales; refused rows; names that need CSV quoting or JSON escapes)
for the test that `scenario eval`'s CSV and JSON stay byte for byte what the earlier writer wrote
(the expected files beside it were written by the binary before the byte writer, commit 9989db5,
from the sample household of then, kept beside them as household.yaml):

    capital -f Tests/Fixtures/scenario-output/household.yaml --today 2025-04-01 scenario eval plans.csv --format csv > plans.out.csv
    (and --format json > plans.out.json; --earliest --format csv > plans.earliest.csv)
"""
import datetime
import os
import random

rng = random.Random(2024)
names = ["Kia Rio", "Car, used", 'The "best" one', "=HYPERLINK(1)", "-5% promo", "+7 999", "@SUM(A1)", "Ёлка 🎄",
         "tab\there", "line\u2028sep", "nel\u0085x", "bom\ufeffin", "back\\slash", "cr\rinside", "multi\nline", "plain"]
first = datetime.date(2025, 4, 1).toordinal()
rows = []
for i in range(400):
    name = names[i % len(names)] + f" {i}"
    price = rng.choice([rng.randint(1, 5_000), rng.randint(5_000, 300_000), rng.randint(300_000, 3_000_000)])
    day = datetime.date.fromordinal(first + rng.randint(0, 330)).isoformat()
    fields = {"name": name, "price": str(price), "date": day}
    kind = i % 6
    if kind == 1:
        fields.update(down=str(price // 5), loan_rate=rng.choice(["9.9", "14", "0"]), loan_term=str(rng.choice([12, 36, 60])))
    elif kind == 2:
        fields.update(instalments=str(rng.choice([3, 6, 12, 24])))
    elif kind == 3:
        fields.update(monthly_cost=str(rng.randint(100, 20_000)), yearly_cost=str(rng.randint(0, 50_000)))
    elif kind == 4:
        fields.update(monthly_income_change=str(rng.randint(-10_000, 10_000)), sale=str(rng.randint(0, price)))
    if i % 37 == 5:
        fields["price"] = "abc"
    if i % 41 == 7:
        fields["date"] = "2025-02-30"
    if i % 43 == 11:
        fields.update(down="1000", loan_rate="12", loan_term="0")
    if i % 47 == 13:
        fields["date"] = "2031-01-01"
    rows.append(fields)

columns = ["name", "price", "date", "down", "loan_rate", "loan_term", "instalments", "monthly_cost", "yearly_cost",
           "monthly_income_change", "sale"]


def quoted(text):
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\r\n') else text


here = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "scenario-output", "plans.csv")
with open(here, "w", newline="") as f:
    f.write(",".join(columns) + "\n")
    for fields in rows:
        f.write(",".join(quoted(fields.get(c, "")) for c in columns) + "\n")
