#!/usr/bin/env python3
"""Writes samples/household.yaml: the household of the seed documents, amounts in RUB.

Deterministic (fixed seed). Three months of transactions, January to March 2025, on top of the
balances the household had on 1 January 2025, dollar savings and a euro card with a trip's
purchases (with the day's rates of both currencies), and the household's instruments: three loans
(their payments split into interest and principal by each loan's own schedule, worked out here
in `decimal` as Scripts/loan-fixtures.py does), the Tinkoff credit card (paid back in full on each
statement's due day), a six-month deposit and the car, losing 15 % of its value a year. Run from
the repository root:

    python3 Scripts/make-household-sample.py > samples/household.yaml
"""
import datetime as dt
import random
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, getcontext

rng = random.Random(20250101)
HOLIDAYS = {dt.date(2025, 1, d) for d in range(1, 9)}  # Russia's New Year holidays
getcontext().prec = 50


def add_months(day, months):
    year, month = divmod(day.month - 1 + months, 12)
    return dt.date(day.year + year, month + 1, day.day)  # every day used here exists in every month


def kopecks(value):
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def money(value):
    """An amount as the ledger file writes it: whole roubles plain, else with kopecks."""
    return str(int(value)) if value == value.to_integral_value() else f"{value:.2f}"


def spaced(value):
    """An amount for a note: digit groups of three, `69 979.36`."""
    return f"{value:,.2f}".replace(",", " ")


def annuity(principal, rate, term, start):
    """A loan's schedule as capital's `loan schedule` prints it (annuity, 30/360, half-up; a
    payment every month on the start's day of the month, from one month after the start): rows of
    (day, payment, interest, principal, balance after). With payments a month apart, 30/360 makes
    each month's interest balance x rate / 1200, rounded half up; the last payment absorbs the
    rounding."""
    monthly = Decimal(rate) / 1200
    payment = kopecks(Decimal(principal) * monthly / (1 - (1 + monthly) ** -term))
    balance = Decimal(principal)
    rows = []
    for n in range(1, term + 1):
        interest = kopecks(balance * monthly)
        repaid = payment - interest if n < term else balance
        balance -= repaid
        rows.append((add_months(start, n), repaid + interest, interest, repaid, balance))
    return rows


# The loans: account, payee, principal, rate (% a year), term (months), start, extra ledger-file lines.
LOANS = [
    ("Mortgage", "Sberbank", 5_000_000, "15", 180, dt.date(2023, 1, 5), []),
    ("VTB Loan", "VTB", 700_000, "22", 48, dt.date(2024, 2, 15), []),
    ("Car Loan", "Car finance", 1_000_000, "16", 42, dt.date(2024, 6, 20), ["collateral: Car"]),
]
SCHEDULES_OF = {name: annuity(principal, rate, term, start) for name, _, principal, rate, term, start, _ in LOANS}
PAYMENT = {name: rows[0][1] for name, rows in SCHEDULES_OF.items()}
CAR_PRICE, CAR_BOUGHT = 2_000_000, dt.date(2024, 6, 20)
CARD_OPENING = 12_000  # what the card owed on 1 January 2025: its December statement
CARD_STATEMENT_DAY, CARD_DUE_AFTER = 25, 20  # statements on the 25th, due 20 days later
DEPOSIT, DEPOSIT_OPENED, DEPOSIT_MATURITY = 300_000, dt.date(2025, 2, 10), dt.date(2025, 8, 10)


def working(day):
    return day.weekday() < 5 and day not in HOLIDAYS


# Rates of the dollar and the euro in roubles, one a working day (and one on 1 January): a path
# shaped like the Bank of Russia's of early 2025 (the rouble gaining about a sixth), drawn between
# these anchors with a little noise, to four decimals. Illustrative, not the bank's figures.
RATE_ANCHORS = {
    "USD": [("2025-01-01", "101.6797"), ("2025-01-17", "102.4"), ("2025-01-31", "98.0"), ("2025-02-14", "91.2"),
            ("2025-02-28", "88.6"), ("2025-03-07", "89.3"), ("2025-03-21", "84.9"), ("2025-03-31", "84.4")],
    "EUR": [("2025-01-01", "106.1878"), ("2025-01-17", "105.3"), ("2025-01-31", "101.9"), ("2025-02-14", "95.4"),
            ("2025-02-28", "92.1"), ("2025-03-07", "96.7"), ("2025-03-21", "92.3"), ("2025-03-31", "91.2")],
}
rate_rng = random.Random(20250314)  # its own, so the lunches above stay what they were


def rate_path(anchors):
    points = [(dt.date.fromisoformat(day), Decimal(rate)) for day, rate in anchors]
    rates, day = {}, points[0][0]
    while day <= points[-1][0]:
        if day == points[0][0] or working(day):
            after = next(i for i, (anchor, _) in enumerate(points) if anchor >= day)
            (d0, r0), (d1, r1) = points[max(after - 1, 0)], points[after]
            middle = r0 + (r1 - r0) * (day - d0).days / max((d1 - d0).days, 1) if d1 > d0 else r1
            noise = Decimal(rate_rng.randrange(-3000, 3001)) / 10000 if day not in (d0, d1) else Decimal(0)
            rates[day] = (middle + noise).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
        day += dt.timedelta(days=1)
    return rates


RATES = {currency: rate_path(anchors) for currency, anchors in RATE_ANCHORS.items()}


def rate_on(currency, day):
    """The rate that holds on a day: the last on or before it."""
    return RATES[currency][max(d for d in RATES[currency] if d <= day)]


def half_even(value):
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)


USD_OPENING, EUR_OPENING = Decimal("3000"), Decimal("120")  # what the two held on 1 January 2025
EUR_BOUGHT = (dt.date(2025, 3, 5), Decimal("400"))
BANK_MARGIN = Decimal("1.015")  # a bank sells currency about 1.5 % above the reference rate
# A long weekend in Europe around 8 March: what the euro card paid for, in euros.
TRIP = [
    (dt.date(2025, 3, 7), "260.00", "Travel", "Hotel Aurora", "Two nights"),
    (dt.date(2025, 3, 7), "46.80", "Eating out", "Trattoria da Gino", None),
    (dt.date(2025, 3, 8), "32.00", "Entertainment", "City museum", None),
    (dt.date(2025, 3, 8), "18.40", "Eating out", "Café Centrale", None),
    (dt.date(2025, 3, 9), "54.90", "Gifts", "Souvenir shop", None),
]

accounts = [
    ("VTB Debit", "debit", {"floor": "20000", "level": None}),
    ("Cash", "cash", {}),
    ("Tinkoff Card", "credit-card",
     {"note": f"Statement on the {CARD_STATEMENT_DAY}th, paid in full {CARD_DUE_AFTER} days later"}),
    ("Sber Deposit", "deposit", {"note": "Six months at 16 %, interest added monthly"}),
    ("Savings USD", "deposit", {"currency": "USD", "note": "Dollar savings account, no fixed term"}),
    ("Euro Card", "debit", {"currency": "EUR", "note": "A euro debit card for trips abroad"}),
    ("Car", "fixed-asset", {"valueChange": "-15", "valueSince": CAR_BOUGHT.isoformat()}),
    ("Mortgage", "loan", {"note": f"Sberbank mortgage, {spaced(PAYMENT['Mortgage'])} a month on the 5th"}),
    ("VTB Loan", "loan", {"note": f"Consumer loan, {spaced(PAYMENT['VTB Loan'])} a month on the 15th"}),
    ("Car Loan", "loan", {"note": f"Car loan secured on the car, {spaced(PAYMENT['Car Loan'])} a month on the 20th"}),
    ("Salary", "income", {}),
    ("Other income", "income", {}),
    ("Interest", "income", {}),
    ("Groceries", "expense", {}),
    ("Housing", "expense", {}),
    ("Utilities", "expense", {}),
    ("Transport", "expense", {}),
    ("Health", "expense", {}),
    ("Kids", "expense", {}),
    ("Eating out", "expense", {}),
    ("Entertainment", "expense", {}),
    ("Clothing", "expense", {}),
    ("Insurance", "expense", {}),
    ("Loan interest", "expense", {}),
    ("Card interest", "expense", {}),
    ("Gifts", "expense", {}),
    ("Other", "expense", {}),
    ("Beauty", "expense", {}),
    ("Sport", "expense", {}),
    ("Phone and subscriptions", "expense", {}),
    ("Cleaning", "expense", {}),
    ("Parking", "expense", {}),
    ("Fuel", "expense", {}),
    ("Fines", "expense", {}),
    ("Travel", "expense", {}),
]

out = []
w = out.append
w("# The household of capital's seed documents: two salaries, two children, a mortgage, a consumer")
w("# loan, a car loan secured on the car, a credit card, a deposit, dollar savings and a euro card.")
w("# Amounts in RUB unless an account holds another currency; rates value those in roubles.")
w("# Generated by Scripts/make-household-sample.py.")
w("capital: 1")
w("currency: RUB")
w("defaultAccount: VTB Debit")
w("calendar: RU  # schedules use Russia's production calendar unless they name another")
w("accounts:")
w("  - name: Capital")
w("    kind: equity")
for name, kind, extra in accounts:
    w(f"  - name: {name}")
    w(f"    kind: {kind}")
    if extra.get("currency"):
        w(f"    currency: {extra['currency']}")
    if extra.get("floor"):
        w(f"    floor: {extra['floor']}")
    if extra.get("note"):
        w(f"    note: \"{extra['note']}\"")
    if extra.get("valueChange"):
        w(f"    valueChange: {extra['valueChange']}")
        w(f"    valueSince: {extra['valueSince']}")
w("groups:")
w("  - name: Everyday money")
w("    type: cash-flow")
w("    accounts: [VTB Debit, Cash]")
w("  - name: Debts")
w("    type: cash-flow")
w("    accounts: [Tinkoff Card, Mortgage, VTB Loan, Car Loan]")
w("  - name: Children")
w("    type: profit-and-loss")
w("    accounts: [Kids]")
w("  - name: Car")
w("    type: profit-and-loss")
w("    accounts: [Fuel, Parking]")
w("transactions:")

txs = []


def simple(day, amount, frm, to, payee, spender=None, note=None, tags=None):
    txs.append((day, len(txs), [("amount", amount), ("from", frm), ("to", to)], payee, spender, note, tags, None))


def split(day, payee, postings, note=None, spender=None):
    """Postings are (account, amount) or (account, amount, currency) for another currency."""
    txs.append((day, len(txs), None, payee, spender, note, None, postings))


def exchange(day, amount, currency, to, payee, note):
    """Buys `amount` of `currency` into `to` from VTB Debit at the bank's price: four postings that
    balance per currency through Capital, as `capital exchange` records them."""
    paid = kopecks(amount * rate_on(currency, day) * BANK_MARGIN)
    split(day, payee, [(to, money(amount)), ("Capital", money(-amount), currency),
                       ("Capital", money(paid)), ("VTB Debit", money(-paid))], note=note)


def foreign_purchase(day, amount, category, payee, note, account="Euro Card", currency="EUR"):
    """A purchase in another currency: the category takes its value at the day's rate."""
    value = half_even(Decimal(amount) * rate_on(currency, day))
    split(day, payee, [(category, money(value)), ("Capital", money(-value)),
                       ("Capital", amount, currency), (account, f"-{amount}")], note=note, spender="Anna")


# The loans' balances are not posted: capital takes them from each loan's schedule.
split(dt.date(2025, 1, 1), "Opening balances", [
    ("VTB Debit", "250000"), ("Cash", "15000"), ("Tinkoff Card", str(-CARD_OPENING)), ("Capital", None),
], note="Balances on 1 January 2025 (the card's is its December statement)")
split(CAR_BOUGHT, "Car dealer", [("Car", str(CAR_PRICE)), ("Capital", None)],
      note="Car bought for 2 000 000: half own money, half the car loan")
simple(dt.date(2025, 2, 7), "300000", "Other income", "VTB Debit", "Design Bureau", "Ivan", note="Annual bonus")
simple(DEPOSIT_OPENED, str(DEPOSIT), "VTB Debit", "Sber Deposit", "Sberbank", note="Six-month deposit at 16 %")
split(dt.date(2025, 1, 1), "Opening balances", [
    ("Savings USD", money(USD_OPENING)), ("Capital", money(-USD_OPENING), "USD"),
    ("Euro Card", money(EUR_OPENING)), ("Capital", money(-EUR_OPENING), "EUR"),
], note="Dollar savings and what the euro card kept from the last trip, on 1 January 2025")
exchange(*EUR_BOUGHT[:1], EUR_BOUGHT[1], "EUR", "Euro Card", "VTB", "Euros for the trip")
for day, amount, category, payee, note in TRIP:
    foreign_purchase(day, amount, category, payee, note)

# Each loan's payments of January to March, split as its schedule splits them.
LOAN_NOTES = {"Mortgage": "Mortgage payment", "VTB Loan": "Consumer loan payment", "Car Loan": "Car loan payment"}
for name, payee, *_ in LOANS:
    for n, (day, payment, interest, repaid, _) in enumerate(SCHEDULES_OF[name], start=1):
        if dt.date(2025, 1, 1) <= day <= dt.date(2025, 3, 31):
            split(day, payee, [("Loan interest", money(interest)), (name, money(repaid)), ("VTB Debit", money(-payment))],
                  note=f"{LOAN_NOTES[name]} {n}: {money(interest)} interest + {money(repaid)} principal")

for month in (1, 2, 3):
    d = lambda day: dt.date(2025, month, day)
    simple(d(10), "180000", "Salary", "VTB Debit", "Employer LLC", "Anna")
    simple(d(25), "150000", "Salary", "VTB Debit", "Design Bureau", "Ivan")
    simple(d(3), "15000", "VTB Debit", "Kids", "Swimming pool", "Anna", tags=["kids", "sport"])
    simple(d(3), "10000", "VTB Debit", "Transport", "Taxi to the pool", "Anna", tags=["kids"])
    simple(d(4), "15000", "VTB Debit", "Kids", "Gymnastics", "Anna", tags=["kids", "sport"])
    simple(d(6), "10000", "VTB Debit", "Kids", "Kindergarten", "Ivan", tags=["kids"])
    simple(d(12), "13000", "VTB Debit", "Utilities", "Housing services", "Ivan")
    simple(d(1), "10000", "VTB Debit", "Parking", "Parking space", "Ivan", tags=["car"])
    simple(d(2), "10000", "VTB Debit", "Phone and subscriptions", "Phones and subscriptions", "Anna")
    simple(d(8), "12000", "VTB Debit", "Cleaning", "Cleaning service", "Anna")
    simple(d(14), "8000", "VTB Debit", "Sport", "Sport club", "Ivan")
    simple(d(16), "10000", "Tinkoff Card", "Beauty", "Beauty salon", "Anna")
    simple(d(18), "10000", "Tinkoff Card", "Clothing", "Apparel", "Anna")
    simple(d(22), "20000", "Tinkoff Card", "Entertainment", "Cinema, theatre, outings", "Ivan")
    simple(d(9), "4000", "VTB Debit", "Fuel", "Fuel", "Ivan", tags=["car"])
    for day, amount in ((7, "6500"), (14, "5200"), (21, "4800"), (28, "3500")):
        simple(d(day), amount, "Tinkoff Card", "Groceries", "Supermarket", "Anna")
    day = d(1)
    while day.month == month:
        if working(day):
            lunch = rng.randrange(250, 501, 10)
            simple(day, str(lunch), "Cash", "Eating out", "Business lunch", "Ivan" if day.day % 2 else "Anna", tags=["lunch"])
        day += dt.timedelta(days=1)
    simple(d(11), "9000", "VTB Debit", "Cash", "ATM withdrawal")


def card_balance(through):
    """The card's balance at the end of a day, from the transactions so far (negative: owed)."""
    total = Decimal(0)
    for day, _, fields, _, _, _, _, postings in txs:
        if day > through:
            continue
        legs = [(fields[2][1], Decimal(fields[0][1])), (fields[1][1], -Decimal(fields[0][1]))] if fields else postings
        total += sum(Decimal(leg[1]) for leg in legs if leg[0] == "Tinkoff Card" and leg[1] is not None)
    return total


# Pay each statement in full on its due day from the debit account: the December statement is the
# card's opening balance; the March one falls due in April, which the forecast pays.
for statement in (dt.date(2024, 12, 25), dt.date(2025, 1, 25), dt.date(2025, 2, 25)):
    due = statement + dt.timedelta(days=CARD_DUE_AFTER)
    owed = Decimal(CARD_OPENING) if statement.year == 2024 else -card_balance(statement)
    simple(due, money(owed), "VTB Debit", "Tinkoff Card", "Card payback", note=f"Statement of {statement.isoformat()}, in full")

txs.sort(key=lambda t: (t[0], t[1]))
for day, _, fields, payee, spender, note, tags, postings in txs:
    w(f"  - date: {day.isoformat()}")
    w(f"    payee: {payee}")
    if spender:
        w(f"    spender: {spender}")
    if note:
        w(f"    note: \"{note}\"")
    if tags:
        w(f"    tags: [{', '.join(tags)}]")
    if fields:
        for key, value in fields:
            w(f"    {key}: {value}")
    else:
        w("    postings:")
        for account, amount, *currency in postings:
            w(f"      - account: {account}")
            if amount is not None:
                w(f"        amount: {amount}")
            if currency:
                w(f"        currency: {currency[0]}")
# The recurring items behind those transactions: what the forecast expands. Transactions up to
# 31 March 2025 are recorded above, so occurrences up to then count as handled. The loans' payments
# and the card's paybacks are no schedules: the instruments below make them.
SCHEDULES = [
    # name, rule, start, extra lines
    ("Salary Anna", "monthly on 10", "2025-01-10",
     ["adjust: preceding", "amount: 180000", "from: Salary", "to: VTB Debit"]),
    ("Salary Ivan", "monthly on 25", "2025-01-25",
     ["adjust: preceding", "amount: 150000", "from: Salary", "to: VTB Debit"]),
    ("Swimming pool", "monthly on 3", "2025-01-03", ["amount: 15000", "from: VTB Debit", "to: Kids"]),
    ("Taxi to the pool", "monthly on 3", "2025-01-03", ["amount: 10000", "from: VTB Debit", "to: Transport"]),
    ("Gymnastics", "monthly on 4", "2025-01-04", ["amount: 15000", "from: VTB Debit", "to: Kids"]),
    ("Kindergarten", "monthly on 6", "2025-01-06", ["amount: 10000", "from: VTB Debit", "to: Kids"]),
    ("Utilities", "monthly on 12", "2025-01-12",
     ["amount: 11000..15000", "expected: 13000", "from: VTB Debit", "to: Utilities", "approval: confirm"]),
    ("Parking space", "monthly on 1", "2025-01-01", ["amount: 10000", "from: VTB Debit", "to: Parking"]),
    ("Phones and subscriptions", "monthly on 2", "2025-01-02", ["amount: 10000", "from: VTB Debit", "to: Phone and subscriptions"]),
    ("Cleaning", "monthly on 8", "2025-01-08", ["amount: 12000", "from: VTB Debit", "to: Cleaning"]),
    ("Sport club", "monthly on 14", "2025-01-14", ["amount: 8000", "from: VTB Debit", "to: Sport"]),
    ("Fuel", "monthly on 9", "2025-01-09", ["amount: 3000..5000", "from: VTB Debit", "to: Fuel"]),
    ("Groceries", "weekly on fri", "2025-01-03", ["amount: 3500..6500", "from: Tinkoff Card", "to: Groceries"]),
    ("ATM cash", "monthly on 11", "2025-01-11", ["amount: 9000", "from: VTB Debit", "to: Cash"]),
    ("Business lunch", "every working day", "2025-01-09", ["amount: 250..500", "from: Cash", "to: Eating out"]),
    ("Beauty salon", "monthly on 16", "2025-01-16", ["amount: 10000", "from: Tinkoff Card", "to: Beauty"]),
    ("Apparel", "monthly on 18", "2025-01-18", ["amount: 5000..15000", "from: Tinkoff Card", "to: Clothing"]),
    ("Entertainment", "monthly on 22", "2025-01-22", ["amount: 20000", "from: Tinkoff Card", "to: Entertainment"]),
    ("Car insurance", "yearly on 04-15", "2025-04-15", ["amount: 40000", "from: VTB Debit", "to: Insurance"]),
    ("Mortgage insurance", "yearly on 06-01", "2025-06-01", ["amount: 25000", "from: VTB Debit", "to: Insurance"]),
    ("Anna's birthday", "yearly on 05-17", "2025-05-17", ["amount: 15000", "from: VTB Debit", "to: Gifts"]),
    ("Masha's birthday", "yearly on 09-03", "2025-09-03", ["amount: 20000", "from: VTB Debit", "to: Gifts"]),
]
w("schedules:")
for name, rule, start, extra in SCHEDULES:
    w(f"  - name: {name}")
    w(f"    rule: {rule}")
    w(f"    start: {start}")
    for line in extra:
        w(f"    {line}")
    if start <= "2025-03-31":
        w("    handledThrough: 2025-03-31")

w("loans:  # each balance follows its schedule through handledThrough; later payments are expected from VTB Debit until posted or settled")
for name, _, principal, rate, term, start, extra in LOANS:
    w(f"  - account: {name}")
    w("    payFrom: VTB Debit")
    w(f"    principal: {principal}")
    w(f"    rate: {rate}")
    w(f"    term: {term}")
    w(f"    start: {start.isoformat()}")
    w("    handledThrough: 2025-03-31")
    for line in extra:
        w(f"    {line}")
w("cards:")
w("  - account: Tinkoff Card")
w("    payFrom: VTB Debit")
w("    limit: 150000")
w(f"    statementDay: {CARD_STATEMENT_DAY}")
w(f"    dueAfter: {CARD_DUE_AFTER}")
w("deposits:  # interest through handledThrough happened; later credits and the payout are expected until posted or settled")
w("  - account: Sber Deposit")
w("    rate: 16")
w("    capitalisation: monthly")
w(f"    opened: {DEPOSIT_OPENED.isoformat()}")
w(f"    maturity: {DEPOSIT_MATURITY.isoformat()}")
w("    payout: VTB Debit")
w("    handledThrough: 2025-03-31")


def iban(country, bban):
    """ISO 13616 check digits: 98 minus the rearranged number (letters as 10..35) mod 97."""
    number = int("".join(str(int(ch, 36)) for ch in bban + country + "00"))
    return f"{country}{98 - number % 97:02d}{bban}"


# Bills (utilities, one partly paid, one paid) and fines (one overdue on 2025-04-01), paid from the
# default account unless they say.
DUES = [
    ("bill", "5400", "2000", "Electricity, March", "2025-04-10", "Utilities",
     ["institution: Mosenergosbyt", f"iban: {iban('RU', '04452522540702810438000012345')}"]),
    ("bill", "8200", None, "Water and heating, March", "2025-04-20", "Utilities", ["institution: MosOblEIRTs"]),
    ("bill", "900", "900", "Internet, March", "2025-03-28", "Phone and subscriptions", ["institution: Rostelecom"]),
    ("fine", "500", None, "Speeding ticket, Leningradskoye shosse", "2025-03-20", None,
     ["institution: GIBDD Moscow", "address: Moscow, Petrovka 38"]),
    ("fine", "3000", None, "Parking, Tverskaya", "2025-04-25", None, ["institution: AMPP Moscow"]),
]
w("dues:")
for kind, total, paid, reason, due, category, extra in DUES:
    w(f"  - type: {kind}")
    w(f"    total: {total}")
    if paid:
        w(f"    paid: {paid}")
    w(f"    reason: \"{reason}\"")
    w(f"    due: {due}")
    if category:
        w(f"    category: {category}")
    for line in extra:
        w(f"    {line}")
# Monthly budgets; the schedules on these categories count first (see docs/cli.md, budget).
w("budgets:")
for category, amount in [("Groceries", "40000"), ("Entertainment", "25000")]:
    w(f"  - category: {category}")
    w(f"    amount: {amount}")
    w("    from: 2025-01-01")
w("rates:  # roubles per unit, a working day each; after the last, the last holds")
for currency, rates in RATES.items():
    for day, rate in rates.items():
        w(f"  - {{currency: {currency}, on: {day.isoformat()}, rate: {rate.normalize():f}}}")
print("\n".join(out))
