#!/usr/bin/env python3
"""Generate deterministic benchmark inputs for bank-statement import.

Usage: Scripts/statement-bench.py OUTDIR [--lines N] [--ofx N] [--seed S]

Writes into OUTDIR (created if missing):
  big.csv    N statement lines (default 100 000) in the shape of
             Tests/Fixtures/statements/eurobank.csv, but UTF-8: `;` separator,
             two preamble lines + blank line + header row, dd.mm.yyyy dates,
             decimal comma with `.` thousands marks, a running balance column,
             some quoted fields containing `;`.
  big.rules  hledger-1.25-compatible rules for big.csv with exactly 30 `if`
             blocks (whole-record and %field matchers, alternations, AND lines
             written `&` -- hledger 1.25 does not understand `&&`) assigning
             account2/comment.
  big.ofx    OFX 2.2 (XML) bank statement with --ofx transactions (default
             10 000), unique FITIDs.

stdlib only; the same arguments always produce byte-identical files.
Generated files are not meant to be committed.
"""

import argparse
import datetime as dt
import os
import random
from decimal import Decimal
from xml.sax.saxutils import escape

# (type, payee, note template, amount range in cents (lo, hi), weight)
SHAPES = [
    ("Kartenzahlung", "REWE Markt GmbH", "REWE SAGT DANKE {n}", (-15000, -300), 14),
    ("Kartenzahlung", "EDEKA Weiß", "Einkauf Filiale {n}", (-9000, -200), 8),
    ("Kartenzahlung", "LIDL DIENSTL", "Einkauf", (-8000, -150), 8),
    ("Kartenzahlung", "ALDI SÜD", "Einkauf Filiale {n}", (-7000, -150), 6),
    ("Kartenzahlung", "Café Crème; Inh. J. Dupont", "Frühstück", (-3500, -250), 4),
    ("Kartenzahlung", "Shell Station Garching", "Tankstelle Super E10", (-9500, -2000), 4),
    ("Kartenzahlung", "Aral Tankstelle", "Diesel", (-9000, -2000), 3),
    ("Kartenzahlung", "DB Vertrieb GmbH", "Fahrkarte München – Berlin", (-15000, -1000), 2),
    ("Kartenzahlung", "Rossmann {n}", "Drogerie", (-4000, -100), 4),
    ("Kartenzahlung", "dm-drogerie markt", "Drogerie", (-4000, -100), 3),
    ("Kartenzahlung", "Amazon EU S.à r.l.", "Bestellung 302-{n}", (-20000, -500), 5),
    ("Kartenzahlung", "Apotheke am Markt", "Rezeptgebühr", (-3000, -500), 2),
    ("Kartenzahlung", "Restaurant Olivo", "Abendessen", (-12000, -1500), 2),
    ("Lastschrift", "Hausverwaltung Müller & Söhne GbR", "Miete Whg. 3 OG links", (-115000, -115000), 1),
    ("Lastschrift", "Stadtwerke München GmbH", "Abschlag Strom {n}", (-9000, -6000), 1),
    ("Lastschrift", "Telekom Deutschland GmbH", "Mobilfunk Rechnung {n}", (-4500, -3000), 1),
    ("Lastschrift", "Vodafone GmbH", "Kabel Internet {n}", (-4000, -3000), 1),
    ("Lastschrift", "Allianz Versicherungs-AG", "Haftpflicht Rate {n}", (-800, -700), 1),
    ("Lastschrift", "HUK-COBURG", "Kfz-Versicherung {n}", (-6000, -4000), 1),
    ("Lastschrift", "Netflix International B.V.", "Abo Premium", (-1799, -1399), 1),
    ("Lastschrift", "Spotify AB", "Premium Family", (-1799, -1799), 1),
    ("Lastschrift", "Fitnessstudio Kraftwerk", "Mitgliedsbeitrag", (-3990, -3990), 1),
    ("Gutschrift", "ACME Software GmbH", "Lohn/Gehalt {n}", (320000, 360000), 1),
    ("Gutschrift", "Finanzamt München", "Erstattung Einkommensteuer", (10000, 150000), 1),
    ("Gutschrift", "Max Mustermann", "Rückzahlung; danke!", (1000, 20000), 1),
    ("Überweisung", "Erika Musterfrau", "Geschenk Geburtstag", (-10000, -2000), 1),
    ("Dauerauftrag", "Depot Sparplan", "ETF-Sparplan MSCI World", (-25000, -25000), 1),
    ("Bargeldauszahlung", "Geldautomat Hauptbahnhof", "GA {n}", (-40000, -2000), 3),
    ("Entgelt", "Sparkasse", "Kontoführungsentgelt 4,95 €", (-495, -495), 1),
    ("Entgelt", "Sparkasse", "Auslandseinsatzentgelt 1,75 %", (-500, -10), 1),
    ("Abschluss", "Sparkasse", "Habenzinsen", (1, 500), 1),
    ("Kartenzahlung", "Kiosk Ümit", "Zeitung", (-800, -150), 2),
]

# exactly 30 if blocks: (matcher lines, account2, comment-or-None)
IF_BLOCKS = [
    (["%type ^Kartenzahlung$"], "expenses:card:unsorted", None),
    (["%payee ^(REWE|EDEKA|LIDL|ALDI)"], "expenses:groceries", None),
    (["REWE|EDEKA|LIDL", "%note ^einkauf"], "expenses:groceries", "Lebensmittel"),
    (["%type kartenzahlung", "& %payee café"], "expenses:eating-out", "Café %note"),
    (["%payee restaurant|olivo"], "expenses:eating-out", None),
    (["shell|aral", "tankstelle"], "expenses:car:fuel", None),
    (["%payee ^DB Vertrieb", "& fahrkarte"], "expenses:travel:rail", "Bahn %note"),
    (["%payee rossmann|dm-drogerie"], "expenses:household", None),
    (["amazon"], "expenses:shopping", "online %1"),
    (["%payee apotheke"], "expenses:health", None),
    (["%payee hausverwaltung", "%note miete"], "expenses:housing:rent", None),
    (["miete", "& %type lastschrift", "& %amount ^-1\\.150,00$"], "expenses:housing:rent", "Miete %valuta"),
    (["%payee stadtwerke"], "expenses:utilities:electricity", "Strom %note"),
    (["%payee telekom|vodafone"], "expenses:utilities:phone", None),
    (["%payee allianz"], "expenses:insurance:liability", "%note (%type)"),
    (["huk-coburg", "%note kfz"], "expenses:insurance:car", None),
    (["netflix|spotify"], "expenses:subscriptions", None),
    (["%payee fitness"], "expenses:sport", None),
    (["%note lohn/gehalt"], "income:salary", "Gehalt %valuta"),
    (["%payee finanzamt", "& %type gutschrift"], "income:tax-refund", None),
    (["%payee ^Max Mustermann$"], "assets:receivable:max", None),
    (["%payee musterfrau"], "expenses:gifts", None),
    (["%payee ^Depot"], "assets:depot", "Sparplan"),
    (["Geldautomat|Bargeld"], "assets:cash", None),
    ([",Entgelt,"], "expenses:fees:bank", None),
    (["auslandseinsatz"], "expenses:fees:foreign", "Auslandsentgelt"),
    (["%type ^Abschluss$", "& habenzinsen"], "income:interest", None),
    (["%payee kiosk"], "expenses:newspapers", None),
    (["überweisung,", "& %amount ^-"], "expenses:transfers", None),
    (["%note danke"], "assets:receivable:max", "zurück: %note"),
]
assert len(IF_BLOCKS) == 30


def de_amount(cents):
    """-123456 -> '-1.234,56'"""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{whole:,}".replace(",", ".") + f",{frac:02d}"


def quote(field):
    if any(c in field for c in ';"\r\n'):
        return '"' + field.replace('"', '""') + '"'
    return field


def write_csv(path, n, rng):
    weights = [s[4] for s in SHAPES]
    day = dt.date(2010, 1, 1)
    balance = 250000  # cents
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write('Kontonummer:;"DE12 7015 0000 0012 3456 78";\r\n')
        f.write(f'Zeitraum:;"01.01.2010 - bench {n} lines";\r\n\r\n')
        f.write("Buchungstag;Wertstellung;Buchungstext;Auftraggeber / Empfänger;"
                "Verwendungszweck;Betrag (EUR);Saldo (EUR)\r\n")
        for i in range(n):
            if rng.random() < 0.3:
                day += dt.timedelta(days=1)
            typ, payee, note, (lo, hi), _ = rng.choices(SHAPES, weights)[0]
            num = str(rng.randrange(10000, 99999999))
            cents = rng.randint(lo, hi)
            balance += cents
            valuta = day + dt.timedelta(days=rng.choice((0, 0, 0, 1, 2)))
            row = [
                day.strftime("%d.%m.%Y"),
                valuta.strftime("%d.%m.%Y"),
                typ,
                quote(payee.format(n=num[:4])),
                quote(note.format(n=num)),
                de_amount(cents),
                de_amount(balance),
            ]
            f.write(";".join(row) + "\r\n")


def write_rules(path):
    out = [
        "# Generated by Scripts/statement-bench.py -- rules for big.csv",
        "# (hledger 1.25 CSV rules syntax; exactly 30 if blocks)",
        "skip 3",
        "separator ;",
        "fields date, valuta, type, payee, note, amount, saldo",
        "date-format %d.%m.%Y",
        "decimal-mark ,",
        "currency EUR",
        "account1 assets:bank:giro",
        "description %payee",
        "comment %note",
        "balance %saldo",
        "",
    ]
    for matchers, account, comment in IF_BLOCKS:
        if len(matchers) == 1:
            out.append(f"if {matchers[0]}")
        else:
            out.append("if")
            out.extend(matchers)
        out.append(f" account2 {account}")
        if comment is not None:
            out.append(f" comment {comment}")
        out.append("")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out))


def write_ofx(path, n, rng):
    names = [(s[1], s[2], s[3]) for s in SHAPES]
    start = dt.datetime(2020, 1, 1, 8, 0, 0)
    t = start
    balance = Decimal("2500.00")
    items = []
    for i in range(n):
        t += dt.timedelta(minutes=rng.randint(30, 600))
        payee, note, (lo, hi) = rng.choice(names)
        num = str(rng.randrange(10000, 99999999))
        cents = rng.randint(lo, hi)
        amt = Decimal(cents).scaleb(-2)
        balance += amt
        trntype = "CREDIT" if cents > 0 else ("FEE" if "entgelt" in note.lower() else "DEBIT")
        items.append(
            "<STMTTRN>\n"
            f"<TRNTYPE>{trntype}</TRNTYPE>\n"
            f"<DTPOSTED>{t.strftime('%Y%m%d%H%M%S')}.000[+1:CET]</DTPOSTED>\n"
            f"<TRNAMT>{amt}</TRNAMT>\n"
            f"<FITID>BENCH{i + 1:08d}</FITID>\n"
            f"<NAME>{escape(payee.format(n=num[:4])[:32])}</NAME>\n"
            f"<MEMO>{escape(note.format(n=num))}</MEMO>\n"
            "</STMTTRN>\n"
        )
    now = t.strftime("%Y%m%d%H%M%S")
    head = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n'
        "<OFX>\n<SIGNONMSGSRSV1>\n<SONRS>\n"
        "<STATUS>\n<CODE>0</CODE>\n<SEVERITY>INFO</SEVERITY>\n</STATUS>\n"
        f"<DTSERVER>{now}</DTSERVER>\n<LANGUAGE>DEU</LANGUAGE>\n"
        "</SONRS>\n</SIGNONMSGSRSV1>\n"
        "<BANKMSGSRSV1>\n<STMTTRNRS>\n<TRNUID>1</TRNUID>\n"
        "<STATUS>\n<CODE>0</CODE>\n<SEVERITY>INFO</SEVERITY>\n</STATUS>\n"
        "<STMTRS>\n<CURDEF>EUR</CURDEF>\n"
        "<BANKACCTFROM>\n<BANKID>70150000</BANKID>\n<ACCTID>0012345678</ACCTID>\n"
        "<ACCTTYPE>CHECKING</ACCTTYPE>\n</BANKACCTFROM>\n"
        f"<BANKTRANLIST>\n<DTSTART>{start.strftime('%Y%m%d')}</DTSTART>\n"
        f"<DTEND>{t.strftime('%Y%m%d')}</DTEND>\n"
    )
    tail = (
        "</BANKTRANLIST>\n"
        f"<LEDGERBAL>\n<BALAMT>{balance}</BALAMT>\n<DTASOF>{now}</DTASOF>\n</LEDGERBAL>\n"
        "</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n"
    )
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(head)
        f.writelines(items)
        f.write(tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--lines", type=int, default=100_000, help="big.csv statement lines")
    ap.add_argument("--ofx", type=int, default=10_000, help="big.ofx transactions")
    ap.add_argument("--seed", type=int, default=20240301)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    # separate generators so changing --ofx does not change big.csv
    write_csv(os.path.join(args.outdir, "big.csv"), args.lines, random.Random(args.seed))
    write_rules(os.path.join(args.outdir, "big.rules"))
    write_ofx(os.path.join(args.outdir, "big.ofx"), args.ofx, random.Random(args.seed + 1))
    print(f"wrote big.csv ({args.lines} lines), big.rules (30 if blocks), "
          f"big.ofx ({args.ofx} transactions) to {args.outdir}")


if __name__ == "__main__":
    main()
