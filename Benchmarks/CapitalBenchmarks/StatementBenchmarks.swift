import Benchmark
import CapitalCore
import CapitalKit
import Foundation

/// Reading bank statements as `capital import STATEMENT --account` does before it decides
/// anything: a German bank's CSV export of 100 000 lines (`;`, decimal commas, a balance column)
/// read by 30 `if` rules (the shape `Scripts/statement-bench.py` writes), and an OFX 2.x file of
/// 10 000 transactions. Targets (issue 18): the CSV in under 1 s and 100 MB, the OFX in under
/// 0.5 s. The files are written once, before any measurement; each iteration reads, decodes and
/// parses them.
func statementBenchmarks() {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capital-statement-bench-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var random = SplitMix64(seed: 18)
    let shops: [(type: String, payee: String, note: String, cents: Int)] = [
        ("Kartenzahlung", "REWE Markt GmbH", "REWE SAGT DANKE", 6_743), ("Kartenzahlung", "EDEKA Weiß", "Einkauf Filiale", 2_318),
        ("Kartenzahlung", "Café Crème", "Frühstück", 1_840), ("Lastschrift", "Telekom Deutschland GmbH", "Mobilfunk Rechnung", 3_995),
        ("Kartenzahlung", "Shell Station Garching", "Tankstelle Super E10", 7_230), ("Lastschrift", "Amazon EU S.à r.l.", "Bestellung", 5_999),
        ("Kartenzahlung", "Rossmann 2210", "Drogerie", 1_249), ("Lastschrift", "Stadtwerke München GmbH", "Abschlag Strom", 8_500),
        ("Kartenzahlung", "Apotheke am Markt", "Rezept", 890), ("Überweisung", "Erika Musterfrau", "Geburtstag", 5_000),
        ("Kartenzahlung", "Kiosk am Bahnhof", "Zeitung", 350), ("Kartenzahlung", "DB Vertrieb GmbH", "Fahrkarte München – Berlin", 12_990),
    ]
    var csv = "Kontonummer:;\"DE12 7015 0000 0012 3456 78\";\nZeitraum:;\"01.01.2010 - bench\";\n\n"
    csv += "Buchungstag;Wertstellung;Buchungstext;Auftraggeber / Empfänger;Verwendungszweck;Betrag (EUR);Saldo (EUR)\n"
    var balance = 250_000
    func euros(_ cents: Int) -> String {
        let magnitude = abs(cents)
        let whole = String(magnitude / 100)
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0 && (whole.count - index) % 3 == 0 { grouped += "." }
            grouped.append(digit)
        }
        return (cents < 0 ? "-" : "") + grouped + "," + (magnitude % 100 < 10 ? "0" : "") + String(magnitude % 100)
    }
    for index in 0..<100_000 {
        let day = Day(14_610 + index / 3).civil  // from 2010-01-01, three lines a day
        let date = "\(day.day < 10 ? "0" : "")\(day.day).\(day.month < 10 ? "0" : "")\(day.month).\(day.year)"
        let (type, payee, note, cents): (String, String, String, Int)
        if index % 30 == 0 {
            (type, payee, note, cents) = ("Gutschrift", "ACME Software GmbH", "Lohn/Gehalt \(index)", 355_754)
        } else {
            let shop = shops[random.next(below: shops.count)]
            (type, payee, note, cents) = (shop.type, shop.payee, "\(shop.note) \(index)", -(shop.cents + random.next(below: 500)))
        }
        balance += cents
        csv += "\(date);\(date);\(type);\(payee);\(note);\(euros(cents));\(euros(balance))\n"
    }
    let csvPath = folder + "/big.csv"
    let rulesPath = folder + "/big.rules"
    try? csv.write(toFile: csvPath, atomically: true, encoding: .utf8)
    try? statementBenchmarkRules.write(toFile: rulesPath, atomically: true, encoding: .utf8)

    var ofx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
        <OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1</TRNUID><STMTRS><CURDEF>EUR</CURDEF>
        <BANKACCTFROM><BANKID>37040044</BANKID><ACCTID>DE89370400440532013000</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>
        <BANKTRANLIST><DTSTART>20100101</DTSTART><DTEND>20251231</DTEND>

        """
    for index in 0..<10_000 {
        let day = Day(14_610 + index / 3).civil
        let date = "\(day.year)\(day.month < 10 ? "0" : "")\(day.month)\(day.day < 10 ? "0" : "")\(day.day)"
        let shop = shops[index % shops.count]
        ofx += """
            <STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>\(date)120000.000[+1:CET]</DTPOSTED><TRNAMT>-\(shop.cents / 100).\(shop.cents % 100 < 10 ? "0" : "")\(shop.cents % 100)</TRNAMT>
            <FITID>TX\(index)</FITID><NAME>\(shop.payee.replacingOccurrences(of: "&", with: "&amp;"))</NAME><MEMO>\(shop.note) \(index)</MEMO></STMTTRN>

            """
    }
    ofx += "</BANKTRANLIST><LEDGERBAL><BALAMT>1000.00</BALAMT><DTASOF>20251231</DTASOF></LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    let ofxPath = folder + "/big.ofx"
    try? ofx.write(toFile: ofxPath, atomically: true, encoding: .utf8)

    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 20)
    Benchmark("Statement: 100000 CSV lines read by 30 if rules", configuration: configuration.checked) { benchmark in
        for _ in benchmark.scaledIterations {
            let reading = try StatementSource(path: csvPath, rulesPath: rulesPath).read(exponent: 2)
            precondition(reading.statement.lines.count == 100_000)
            blackHole(reading)
        }
    }
    Benchmark("Statement: 10000 OFX transactions", configuration: configuration.checked) { benchmark in
        for _ in benchmark.scaledIterations {
            let reading = try StatementSource(path: ofxPath).read(exponent: 2)
            precondition(reading.statement.lines.count == 10_000)
            blackHole(reading)
        }
    }
}

/// 30 `if` rules, whole-record and field matchers, alternatives, `&` and a table-free mix, as
/// bank rules are written (Scripts/statement-bench.py writes the same).
let statementBenchmarkRules = #"""
    # Generated by Scripts/statement-bench.py -- rules for big.csv
    # (hledger 1.25 CSV rules syntax; exactly 30 if blocks)
    skip 3
    separator ;
    fields date, valuta, type, payee, note, amount, saldo
    date-format %d.%m.%Y
    decimal-mark ,
    currency EUR
    account1 assets:bank:giro
    description %payee
    comment %note
    balance %saldo

    if %type ^Kartenzahlung$
     account2 expenses:card:unsorted

    if %payee ^(REWE|EDEKA|LIDL|ALDI)
     account2 expenses:groceries

    if
    REWE|EDEKA|LIDL
    %note ^einkauf
     account2 expenses:groceries
     comment Lebensmittel

    if
    %type kartenzahlung
    & %payee café
     account2 expenses:eating-out
     comment Café %note

    if %payee restaurant|olivo
     account2 expenses:eating-out

    if
    shell|aral
    tankstelle
     account2 expenses:car:fuel

    if
    %payee ^DB Vertrieb
    & fahrkarte
     account2 expenses:travel:rail
     comment Bahn %note

    if %payee rossmann|dm-drogerie
     account2 expenses:household

    if amazon
     account2 expenses:shopping
     comment online %1

    if %payee apotheke
     account2 expenses:health

    if
    %payee hausverwaltung
    %note miete
     account2 expenses:housing:rent

    if
    miete
    & %type lastschrift
    & %amount ^-1\.150,00$
     account2 expenses:housing:rent
     comment Miete %valuta

    if %payee stadtwerke
     account2 expenses:utilities:electricity
     comment Strom %note

    if %payee telekom|vodafone
     account2 expenses:utilities:phone

    if %payee allianz
     account2 expenses:insurance:liability
     comment %note (%type)

    if
    huk-coburg
    %note kfz
     account2 expenses:insurance:car

    if netflix|spotify
     account2 expenses:subscriptions

    if %payee fitness
     account2 expenses:sport

    if %note lohn/gehalt
     account2 income:salary
     comment Gehalt %valuta

    if
    %payee finanzamt
    & %type gutschrift
     account2 income:tax-refund

    if %payee ^Max Mustermann$
     account2 assets:receivable:max

    if %payee musterfrau
     account2 expenses:gifts

    if %payee ^Depot
     account2 assets:depot
     comment Sparplan

    if Geldautomat|Bargeld
     account2 assets:cash

    if ,Entgelt,
     account2 expenses:fees:bank

    if auslandseinsatz
     account2 expenses:fees:foreign
     comment Auslandsentgelt

    if
    %type ^Abschluss$
    & habenzinsen
     account2 income:interest

    if %payee kiosk
     account2 expenses:newspapers

    if
    überweisung,
    & %amount ^-
     account2 expenses:transfers

    if %note danke
     account2 assets:receivable:max
     comment zurück: %note
    """#
