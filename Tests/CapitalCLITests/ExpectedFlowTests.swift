import CapitalCore
import CapitalTestSupport
import Foundation
import Testing

/// Issue 17: expected flows and recorded transactions reconciled — one meaning of balance, a
/// payment recorded by hand counted once, overdue said out loud.
@Suite("CLI: expected flows, settling and posting")
struct ExpectedFlowTests {
    /// Every account's balance (minor units) at the end of `today`, as `balance` shows it.
    static func balances(_ cli: CLI, today: String) throws -> [String: Int64] {
        let object = try #require(try cli.json(["--today", today, "balance", "--all"]) as? [String: Any])
        var result: [String: Int64] = [:]
        for row in try #require(object["accounts"] as? [[String: Any]]) {
            result[row.string("account") ?? "?"] = minorUnits(row.string("balance") ?? "")
        }
        return result
    }

    /// Level 4's can-spend today (minor units).
    static func canSpend(_ cli: CLI, today: String, _ extra: [String] = []) throws -> Int64 {
        let object = try #require(try cli.json(["--today", today, "can-spend"] + extra) as? [String: Any])
        let text = try #require(object.string("amount"))
        return try #require(minorUnits(text))
    }

    /// The state of the flow `ref` names, from `expected list`.
    static func state(_ cli: CLI, _ ref: String, today: String) throws -> String? {
        try cli.rows(["--today", today, "expected", "list", "--from", "2025-01-01", "--until", "2025-12-31"]).first { $0.string("ref") == ref }?
            .string("state")
    }

    /// Case 1: nothing posted between the 5th and the 6th, so no balance moves: the unrecorded
    /// mortgage payment of the 5th is expected, not taken on its day and given back the next.
    @Test func aBalanceHoldsWhatHappenedNotWhatIsExpected() throws {
        let cli = try CLI.household()
        let fifth = try Self.balances(cli, today: "2025-04-05")
        let sixth = try Self.balances(cli, today: "2025-04-06")
        for account in ["VTB Debit", "Mortgage", "Capital"] { #expect(fifth[account] == sixth[account], "\(account)") }
        #expect(fifth["VTB Debit"] == 354_919_31)
        // The forecast counts it: open, its day passed, so paid today.
        let open = try #require(try cli.rows(["--today", "2025-04-06", "expected", "list", "--overdue", "--kind", "loan"]).first)
        #expect(open.string("ref") == "Mortgage@2025-04-05" && open.string("state") == "open" && open.string("amount") == "69979.36")
        // loan list agrees with balance, and its next payment is the one still open.
        func mortgage() throws -> [String: Any] {
            try #require(try cli.rows(["--today", "2025-04-06", "loan", "list"]).first { $0.string("name") == "Mortgage" })
        }
        #expect(try mortgage().string("balance") == "4771882.31" && (try mortgage().string("nextDay")) == "2025-04-05")
        #expect(cli.run(["--today", "2025-04-06", "transfer", "69979.36", "--from", "VTB Debit", "--to", "Mortgage"]).status == 0)
        let paid = try Self.balances(cli, today: "2025-04-06")
        #expect(
            try mortgage().string("balance").flatMap(minorUnits) == -(paid["Mortgage"] ?? 0) && (try mortgage().string("nextDay")) == "2025-05-05")
        #expect(paid["Mortgage"] == -4_761_551_48, "the payment's principal, as its schedule says")
    }

    /// Case 1, a card: spending on it with no payback recorded leaves the bank as it was and the
    /// card owing, on the payback day and after it, while `card show` says what is overdue.
    @Test func aCardOwesUntilItsPaybackIsRecorded() throws {
        let cli = try CLI()
        cli.ok(["init", "--currency", "RUB"])
        cli.ok(["account", "add", "Bank", "--kind", "debit", "--default"])
        cli.ok(["earn", "50000", "Salary", "--on", "2025-03-01", "--today", "2025-03-01"])
        cli.ok([
            "card", "add", "Card", "--limit", "100000", "--statement-day", "25", "--due-after", "20", "--pay-from", "Bank", "--today", "2025-03-01",
        ])
        cli.ok(["spend", "10000", "Groceries", "--from", "Card", "--on", "2025-03-10", "--today", "2025-03-10"])
        for today in ["2025-04-14", "2025-04-15"] {
            let balances = try Self.balances(cli, today: today)
            #expect(balances["Bank"] == 50_000_00 && balances["Card"] == -10_000_00, "\(today): \(balances)")
        }
        let card = cli.ok(["--today", "2025-04-15", "card", "show", "Card"])
        #expect(card.contains("Overdue") && card.contains("10 000.00"), "\(card)")
    }

    /// A card's paybacks are expected flows too: listed, counted in the overdue note, skipped
    /// (the debt carried to the next statement) and reopened, paid and marked posted by `post`
    /// when overdue; never settled by hand (a transfer to the card pays them).
    @Test func aCardsPaybacksAreExpectedAndPostPaysAnOverdueOne() throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-16"]
        let cards = try cli.rows(today + ["expected", "list", "--kind", "card"])
        #expect(cards.map { $0.string("ref") } == ["Tinkoff Card@2025-03-25", "Tinkoff Card@2025-04-25"], "\(cards)")
        #expect(cards.first?.string("date") == "2025-04-14" && cards.first?.string("amount") == "60000.00" && cards.first?.string("state") == "open")
        let overdue = try cli.rows(today + ["expected", "list", "--overdue"])
        let note = cli.run(today + ["can-spend"]).stderr
        #expect(note.contains("capital: note: \(overdue.count) expected flows") && overdue.contains { $0.string("kind") == "card" }, "\(note)")
        // Skipped, the overdue payback is not paid today: the card owes it at its next statement,
        // whose payback (in full) grows by it; reopened, all is as before.
        let next = try #require(cards.last?.string("amount").flatMap(minorUnits))
        cli.ok(today + ["expected", "skip", "Tinkoff Card@2025-03-25"])
        let skipped = try cli.rows(today + ["expected", "list", "--kind", "card"])
        #expect(skipped.map { $0.string("state") } == ["skipped", "open"] && skipped.first?.string("amount") == "60000.00", "\(skipped)")
        #expect(skipped.last?.string("amount").flatMap(minorUnits) == next + 60_000_00)
        #expect(try cli.rows(today + ["expected", "list", "--overdue", "--kind", "card"]).isEmpty)
        cli.ok(today + ["expected", "reopen", "Tinkoff Card@2025-03-25"])
        #expect(try cli.rows(today + ["expected", "list", "--kind", "card"]).map { $0.string("amount") } == cards.map { $0.string("amount") })
        let settle = cli.run(today + ["transfer", "60000", "--from", "VTB Debit", "--to", "Tinkoff Card", "--settles", "Tinkoff Card@2025-03-25"])
        #expect(
            settle.status == 1
                && settle.stderr
                    == "capital: error: --settles 'Tinkoff Card@2025-03-25': a card's payback is what it owes: a transfer to the card pays it, and the payback follows\n",
            "\(settle)")
        let posted = try #require(try cli.json(today + ["post"]) as? [String: Any])
        let card = try #require((posted["posted"] as? [[String: Any]])?.first { $0.string("kind") == "card" })
        #expect(card.string("date") == "2025-04-14" && card.string("amount") == "60000.00" && card.string("name") == "Tinkoff Card")
        let payback = try cli.rows(["tx", "list", "--from", "2025-04-14", "--to", "2025-04-14"]).filter {
            $0.string("payee") == "Tinkoff Card payback"
        }
        #expect(payback.count == 1 && payback.first?.string("amount") == "60000.00" && payback.first?.string("id") == card.string("transaction"))
        #expect(try cli.rows(today + ["expected", "list", "--overdue", "--kind", "card"]).isEmpty)
        #expect(try cli.rows(today + ["expected", "list", "--kind", "card"]).map { $0.string("ref") } == ["Tinkoff Card@2025-04-25"])
        // The mark travels in the ledger file.
        let file = cli.path("ledger.yaml")
        cli.ok(["export", "--out", file])
        let written = try String(contentsOfFile: file, encoding: .utf8)
        let id = try #require(card.string("transaction"))
        // An id starting with a digit is quoted (YAML could read it as a number).
        #expect(["\(id)\n", "\"\(id)\"\n"].contains { written.contains("      - date: 2025-03-25\n        transaction: " + $0) })
    }

    /// Case 2: a loan payment recorded by hand — on its day, a day early, two days late — is
    /// counted once: the answer is the one `post` would have given, and `remind` drops it.
    @Test(arguments: ["2025-04-05", "2025-04-04", "2025-04-07"])
    func aLoanPaymentRecordedByHandIsCountedOnce(on day: String) throws {
        let posted = try CLI.household()
        posted.ok(["--today", "2025-04-08", "post", "--until", "2025-04-05"])
        let byHand = try CLI.household()
        byHand.ok(["--today", "2025-04-08", "post", "--until", "2025-04-05"])
        // Undo what post did for the mortgage, then record it by hand.
        let postedTransaction = try #require(
            try byHand.rows(["tx", "list", "--from", "2025-04-05", "--to", "2025-04-05"]).first { $0.string("payee") == "Mortgage payment" }?.string(
                "id"))
        byHand.ok(["tx", "rm", postedTransaction])
        #expect(try Self.state(byHand, "Mortgage@2025-04-05", today: "2025-04-08") == "open")
        let result = byHand.run(["--today", "2025-04-08", "transfer", "69979.36", "--from", "VTB Debit", "--to", "Mortgage", "--on", day])
        #expect(result.status == 0 && result.stderr == "capital: note: settles Mortgage payment of 2025-04-05 (Mortgage@2025-04-05)\n", "\(result)")
        #expect(try Self.state(byHand, "Mortgage@2025-04-05", today: "2025-04-08") == "settled")
        #expect(try Self.canSpend(byHand, today: "2025-04-08") == (try Self.canSpend(posted, today: "2025-04-08")))
        let balances = try Self.balances(byHand, today: "2025-04-08")
        #expect(balances == (try Self.balances(posted, today: "2025-04-08")), "split into principal and interest, as posted")
        // remind exits 2: the sample's fine is overdue.
        let remind = byHand.run(["--today", "2025-04-08", "remind", "--days", "10", "--format", "json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(remind.stdout.utf8)) as? [[String: Any]])
        #expect(items.contains { $0.string("what") == "VTB Loan" } && !items.contains { $0.string("what") == "Mortgage" }, "\(remind)")
    }

    /// A transaction edited so that it no longer pays what it settled leaves that flow open again,
    /// and says so; edited back, it settles it again (split as recorded); an edit of its note or
    /// of its day keeps what it stands for.
    @Test func editingASettlingTransactionReopensOrKeepsItsFlow() throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-06"]
        let settled = try Self.canSpend(cli, today: "2025-04-06")
        let recorded = cli.run(today + ["transfer", "69979.36", "--from", "VTB Debit", "--to", "Mortgage", "--on", "2025-04-04", "--format", "json"])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(recorded.stdout.utf8)) as? [String: Any])?.string("id"), "\(recorded)")
        #expect(try Self.state(cli, "Mortgage@2025-04-05", today: "2025-04-06") == "settled")
        let paid = try Self.canSpend(cli, today: "2025-04-06")
        #expect(paid == settled, "an overdue payment counted today, then recorded: the same answer")

        let elsewhere = cli.run(today + ["tx", "edit", id, "-p", "Clothing=100", "-p", "Cash"])
        #expect(
            elsewhere.status == 0
                && elsewhere.stderr == "capital: note: no longer stands for Mortgage payment of 2025-04-05 (Mortgage@2025-04-05): open again\n",
            "\(elsewhere)")
        #expect(try Self.state(cli, "Mortgage@2025-04-05", today: "2025-04-06") == "open")
        // The payment is expected again (overdue, so today) and 100 of clothing (no budget) came out of cash.
        #expect(try Self.canSpend(cli, today: "2025-04-06") == paid - 100_00)

        let back = cli.run(today + ["tx", "edit", id, "-p", "Mortgage=69979.36", "-p", "VTB Debit"])
        #expect(back.stderr == "capital: note: settles Mortgage payment of 2025-04-05 (Mortgage@2025-04-05)\n", "\(back)")
        #expect(try Self.state(cli, "Mortgage@2025-04-05", today: "2025-04-06") == "settled")
        #expect(try Self.canSpend(cli, today: "2025-04-06") == paid)
        let postings = try #require(try cli.json(["tx", "show", id, "--format", "json"]) as? [String: Any])["postings"] as? [[String: Any]]
        #expect(postings?.compactMap { $0.string("account") }.sorted() == ["Loan interest", "Mortgage", "VTB Debit"], "split again")
        // Edited whole to the loan while it settles the payment: still settled, split as recorded.
        let whole = cli.run(today + ["tx", "edit", id, "-p", "Mortgage=69979.36", "-p", "VTB Debit"])
        #expect(whole.status == 0 && whole.stderr.isEmpty, "\(whole)")
        let kept = try #require(try cli.json(["tx", "show", id, "--format", "json"]) as? [String: Any])["postings"] as? [[String: Any]]
        #expect(kept?.compactMap { $0.string("account") }.sorted() == ["Loan interest", "Mortgage", "VTB Debit"], "split when kept")
        #expect(try Self.canSpend(cli, today: "2025-04-06") == paid)

        for change in [["--note", "paid at the branch"], ["--on", "2025-03-29"]] {
            let kept = cli.run(today + ["tx", "edit", id] + change)
            #expect(kept.status == 0 && kept.stderr.isEmpty, "\(change): \(kept)")
            #expect(try Self.state(cli, "Mortgage@2025-04-05", today: "2025-04-06") == "settled", "\(change)")
        }
    }

    /// A payment of another amount settles only when named; the difference is said, and the
    /// money not paid stays in the bank, owed.
    @Test func aPartialPaymentSettlesWhenNamedAndSaysTheDifference() throws {
        let cli = try CLI.household()
        let before = try Self.canSpend(cli, today: "2025-04-06")
        // Not matched by amount: it stays a transfer, and the payment is still expected.
        let plain = cli.run(["--today", "2025-04-06", "transfer", "60000", "--from", "VTB Debit", "--to", "Mortgage"])
        #expect(plain.status == 0 && !plain.stderr.contains("settles"))
        cli.ok(["tx", "rm", try #require(try cli.rows(["tx", "list", "--from", "2025-04-06"]).last?.string("id"))])
        let named = cli.run([
            "--today", "2025-04-06", "transfer", "60000", "--from", "VTB Debit", "--to", "Mortgage", "--settles", "mortgage@2025-04-05",
        ])
        #expect(
            named.stderr
                == "capital: note: settles Mortgage payment of 2025-04-05 (Mortgage@2025-04-05); expected 69 979.36, recorded 60 000.00 (9 979.36 less): the rest stays owed, overdue until paid (`capital post`, or a transfer to the loan)\n",
            "\(named)")
        // The rest stays owed (issue 50, item 5.2): the money not paid is not spendable.
        #expect(try Self.canSpend(cli, today: "2025-04-06") == before)
    }

    /// Bad input: each one clear line, a non-zero exit, nothing recorded.
    @Test func settlingWhatCannotBeSettledIsRefused() throws {
        let cli = try CLI.household()
        let count = try cli.rows(["tx", "list"]).count
        let cases: [([String], String)] = [
            (
                ["--settles", "Mortgage@2025-04-06"],
                "--settles 'Mortgage@2025-04-06': 'Mortgage' expects nothing on 2025-04-06; the nearest is Mortgage@2025-04-05"
            ),
            (["--settles", "Nothing@2025-04-05"], "--settles 'Nothing@2025-04-05': no schedule, loan, deposit or budget is named 'Nothing'"),
            (
                ["--settles", "Mortgage@2024-01-05"],
                "--settles 'Mortgage@2024-01-05': it is before the day its schedule, loan or deposit was taken over (handled through): counted as recorded"
            ),
            (["--settles", "Mortgage"], "--settles 'Mortgage': expected NAME@YYYY-MM-DD (a schedule's, a loan's or a deposit's name and the day)"),
            (
                ["--settles", "Car Loan@2025-04-20"],
                "--settles 'Car Loan@2025-04-20': it moves 'Car Loan', 'Loan interest' and 'VTB Debit'; this transaction does not move them the same way"
            ),
            (
                ["--settles", "Business lunch@2025-04-07"],
                "--settles 'Business lunch@2025-04-07': it moves 'Cash' and 'Eating out'; this transaction does not move them the same way"
            ),
            (["--match-days", "-1"], "--match-days '-1': expected a whole number of days from 0 to 366"),
            (["--match-days", "2", "--settles", "Mortgage@2025-04-05"], "--match-days '2': give either --settles or --match-days, not both"),
        ]
        for (extra, message) in cases {
            let result = cli.run(["--today", "2025-04-06", "transfer", "69979.36", "--from", "VTB Debit", "--to", "Mortgage"] + extra)
            #expect(result.status != 0 && result.stderr == "capital: error: " + message + "\n", "\(extra): \(result)")
        }
        #expect(try cli.rows(["tx", "list"]).count == count)
        // Already settled: the second one is refused and not recorded.
        let first = cli.run([
            "--today", "2025-04-06", "transfer", "69979.36", "--from", "VTB Debit", "--to", "Mortgage", "--settles", "Mortgage@2025-04-05",
        ])
        #expect(first.status == 0 && first.stderr == "capital: note: settles Mortgage payment of 2025-04-05 (Mortgage@2025-04-05)\n", "\(first)")
        let id = try #require(try cli.rows(["tx", "list"]).last?.string("id"))
        let again = cli.run([
            "--today", "2025-04-06", "transfer", "69979.36", "--from", "VTB Debit", "--to", "Mortgage", "--settles", "Mortgage@2025-04-05",
        ])
        #expect(
            again.status == 1
                && again.stderr == "capital: error: --settles 'Mortgage@2025-04-05': it is already settled by transaction \(id.prefix(8))\n",
            "\(again)")
        #expect(try cli.rows(["tx", "list"]).count == count + 1)
        // expected list: a window that ends before it starts, two filters that exclude each other.
        for (args, message) in [
            (["--from", "2025-05-01", "--until", "2025-04-01"], "--until '2025-04-01': is before the first day 2025-05-01"),
            (["--open", "--overdue"], "--open and --overdue: give one of them, not both"),
        ] {
            let list = cli.run(["--today", "2025-04-06", "expected", "list"] + args)
            #expect(list.status == 64 && list.stderr == "capital: error: \(message)\n", "\(list)")
        }
    }

    /// Issue 51, item 12: reopening a settled flow while its transaction stays would count it
    /// twice: refused without --force, naming the transaction and what helps, nothing changed;
    /// with --force it opens and a note says it now counts twice; skipping it or removing the
    /// transaction counts it once again.
    @Test func reopeningASettledFlowIsRefusedWithoutForce() throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-06"]
        let ref = "Mortgage@2025-04-05"
        let open = try Self.canSpend(cli, today: "2025-04-06")
        let recorded = cli.run(today + ["transfer", "69979.36", "--from", "VTB Debit", "--to", "Mortgage", "--on", "2025-04-04", "--format", "json"])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(recorded.stdout.utf8)) as? [String: Any])?.string("id"), "\(recorded)")
        let short = String(id.prefix(8))
        #expect(try Self.state(cli, ref, today: "2025-04-06") == "settled")
        let settled = try Self.canSpend(cli, today: "2025-04-06")
        let refused = cli.fails(today + ["expected", "reopen", ref], mentioning: [])
        #expect(
            refused.status == 1
                && refused.stderr
                    == "capital: error: REF '\(ref)': it is settled by transaction \(short), which stays recorded: reopened, Mortgage would count twice; "
                    + "`capital tx rm \(short)` removes it and opens the flow, or give --force to count both\n",
            "\(refused)")
        #expect(try Self.state(cli, ref, today: "2025-04-06") == "settled")
        // Malformed, even with --force: exit 64, nothing changed.
        let malformed = cli.fails(today + ["expected", "reopen", "Mortgage@2025-04-31", "--force"], mentioning: ["REF 'Mortgage@2025-04-31'"])
        #expect(malformed.status == 64)
        let forced = cli.run(today + ["expected", "reopen", ref, "--force"])
        #expect(forced.status == 0 && forced.stdout == "Reopened Mortgage payment of 2025-04-05 (\(ref)).\n", "\(forced)")
        #expect(
            forced.stderr
                == "capital: note: its transaction \(short) stays recorded: Mortgage now counts twice; "
                + "`capital tx rm \(short)` or `capital expected skip '\(ref)'` counts it once\n", "\(forced)")
        #expect(try Self.state(cli, ref, today: "2025-04-06") == "open")
        #expect(try Self.canSpend(cli, today: "2025-04-06") == settled - 69_979_36, "the payment and its transaction both count")
        cli.ok(today + ["expected", "skip", ref])
        #expect(try Self.canSpend(cli, today: "2025-04-06") == settled)
        // A skipped flow reopens without --force; with the transaction removed it counts once, open.
        cli.ok(today + ["expected", "reopen", ref])
        cli.ok(["tx", "rm", id])
        #expect(try Self.canSpend(cli, today: "2025-04-06") == open)
        let help = cli.run(["expected", "reopen", "--help"])
        #expect(help.stdout.contains("--force"), "\(help)")
    }

    /// `expected skip` and `reopen`: a skipped flow leaves the forecast and `post`; a posted one
    /// cannot be skipped (its transaction stands for it).
    @Test func skipAndReopen() throws {
        let cli = try CLI.household()
        let before = try Self.canSpend(cli, today: "2025-04-06")
        #expect(
            cli.ok(["--today", "2025-04-06", "expected", "skip", "Mortgage@2025-04-05"])
                == "Skipped Mortgage payment of 2025-04-05 (Mortgage@2025-04-05).\n")
        #expect(try Self.canSpend(cli, today: "2025-04-06") == before + 69_979_36)
        #expect(try Self.state(cli, "Mortgage@2025-04-05", today: "2025-04-06") == "skipped")
        let post = try #require(try cli.json(["--today", "2025-04-06", "post", "--dry-run"]) as? [String: Any])
        let posted = try #require(post["posted"] as? [[String: Any]])
        #expect(
            posted.contains { $0.string("name") == "VTB Debit" || $0.string("kind") == "schedule" }
                && !posted.contains { $0.string("name") == "Mortgage" }, "\(post)")
        cli.ok(["--today", "2025-04-06", "expected", "reopen", "Mortgage@2025-04-05"])
        #expect(try Self.canSpend(cli, today: "2025-04-06") == before)
        // A bill's payments are its own: recorded with due pay, not skipped or settled.
        let fine = cli.run(["--today", "2025-04-06", "expected", "skip", "Speeding ticket, Leningradskoye shosse@2025-03-20"])
        #expect(
            fine.status == 1
                && fine.stderr
                    == "capital: error: REF 'Speeding ticket, Leningradskoye shosse@2025-03-20': it is bill or fine #4: its payments are recorded on it; "
                    + "record a payment with `capital due pay 4 AMOUNT`, or change it with `capital due edit 4`\n",
            "\(fine)")
        // Posted: refused, nothing changed.
        cli.ok(["--today", "2025-04-06", "post"])
        let id = try #require(
            try cli.rows(["tx", "list", "--from", "2025-04-05", "--to", "2025-04-05"]).first { $0.string("payee") == "Mortgage payment" }?.string(
                "id"))
        let skip = cli.run(["--today", "2025-04-06", "expected", "skip", "Mortgage@2025-04-05"])
        #expect(
            skip.status == 1
                && skip.stderr
                    == "capital: error: REF 'Mortgage@2025-04-05': it is already posted by transaction \(id.prefix(8)): remove that transaction to open it again\n",
            "\(skip)")
        #expect(try Self.state(cli, "Mortgage@2025-04-05", today: "2025-04-06") == "posted")
        // Removing the transaction opens it again.
        cli.ok(["tx", "rm", id])
        #expect(try Self.state(cli, "Mortgage@2025-04-05", today: "2025-04-06") == "open")
    }

    /// Posted, settled and skipped flows and the loans' history travel in the ledger file: its
    /// own export changes nothing, and a new database made from it expects the same.
    @Test func statesSurviveAnExportAndImport() throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-10"]
        #expect(cli.run(today + ["transfer", "69979.36", "--from", "VTB Debit", "--to", "Mortgage", "--on", "2025-04-05"]).status == 0)
        cli.ok(today + ["expected", "skip", "Salary Ivan@2025-04-25"])
        cli.ok(today + ["post"])
        let file = cli.path("ledger.yaml")
        cli.ok(["export", "--out", file])
        #expect(cli.ok(["import", file]).contains("nothing new"))
        let list = today + ["expected", "list", "--from", "2025-03-01", "--until", "2025-05-31", "--format", "csv"]
        let states = cli.ok(list)
        #expect(states.contains("Mortgage@2025-04-05,loan,2025-04-05,Mortgage payment,69979.36,RUB,settled,"))
        #expect(states.contains("Salary Ivan@2025-04-25,schedule,2025-04-25,Salary Ivan,") && states.contains(",skipped,"))
        let copy = try CLI()
        copy.ok(["import", file])
        #expect(copy.ok(list) == states)
        #expect(try Self.canSpend(copy, today: "2025-04-10") == (try Self.canSpend(cli, today: "2025-04-10")))
    }

    /// Case 6: a database a year and a half past its last post says how much it counts today, and
    /// `--overdue ignore` leaves it out.
    @Test func overdueFlowsAreSaidOutLoud() throws {
        let cli = try CLI.household()
        let result = cli.run(["--today", "2026-11-24", "can-spend"])
        let note = try #require(result.stderr.split(separator: "\n").first)
        #expect(result.status == 0 && CLI.isOverdueNote(note), "\(result)")
        #expect(note.hasPrefix("capital: note: ") && note.contains(" expected flows before 2026-11-24 are open (net "), "\(note)")
        let object = try #require(try cli.json(["--today", "2026-11-24", "can-spend"]) as? [String: Any])
        let overdue = try #require(object["overdue"] as? [String: Any])
        let count = try #require(overdue["count"] as? Int)
        #expect(count > 800 && note.contains("capital: note: \(count) expected flows"))
        // What the note counts is what the list shows: occurrences, loan payments, the four unpaid bills and fines.
        let overdueList = try cli.rows(["--today", "2026-11-24", "expected", "list", "--overdue"])
        #expect(overdueList.count == count && overdueList.filter { $0.string("kind") == "due" }.count == 4)
        let ignored = cli.run(["--today", "2026-11-24", "can-spend", "--overdue", "ignore"])
        // Only the note that the sample's rates (of March 2025) are old is left.
        #expect(
            ignored.status == 0 && ignored.stderr.split(separator: "\n").allSatisfy(CLI.isStaleRateNote) && ignored.stdout != result.stdout,
            "\(ignored)")
        // Posting everything due leaves only what waits for approval and the bills and fines.
        cli.ok(["--today", "2026-11-24", "post"])
        let waiting = try #require(try cli.json(["--today", "2026-11-24", "post", "--dry-run"]) as? [String: Any])
        let pending = try #require(waiting["pending"] as? [[String: Any]]).count
        let open = try cli.rows(["--today", "2026-11-24", "expected", "list", "--overdue"])
        #expect(
            pending > 0 && open.filter { $0.string("kind") == "schedule" }.count == pending && open.filter { $0.string("kind") == "due" }.count == 4)
        let after = cli.run(["--today", "2026-11-24", "can-spend"])
        #expect(after.stderr.contains("capital: note: \(open.count) expected flows before 2026-11-24 are open"), "\(after)")
        let bad = cli.run(["--today", "2026-11-24", "can-spend", "--overdue", "skip"])
        #expect(bad.status == 64 && bad.stderr == "capital: error: --overdue 'skip': expected count or ignore\n", "\(bad)")
    }

    /// The account and group screens' outlook ("Today (with today's flows)", the lowest ahead)
    /// counts open flows before today too: it says so, carries it in JSON, and `--overdue
    /// ignore` leaves them out.
    @Test(arguments: [["group", "show", "Everyday money"], ["account", "show", "VTB Debit"]])
    func theOutlookOfAnAccountOrAGroupSaysWhatIsOverdue(screen: [String]) throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-06"]
        let canSpend = cli.run(today + ["can-spend"])
        let counted = cli.run(today + screen)
        #expect(counted.status == 0 && counted.stderr == canSpend.stderr && CLI.isOverdueNote(Substring(counted.stderr.dropLast())), "\(counted)")
        let object = try #require(try cli.json(today + screen) as? [String: Any])
        let overdue = try #require(object["overdue"] as? [String: Any])
        #expect((overdue["count"] as? Int ?? 0) > 0, "\(object)")
        let ignored = cli.run(today + screen + ["--overdue", "ignore"])
        #expect(ignored.status == 0 && ignored.stderr.isEmpty && ignored.stdout != counted.stdout, "\(ignored)")
        // Balances hold what happened: only the outlook moves.
        let balance = { (output: String) in output.split(separator: "\n").first { $0.hasPrefix("Balance") || $0.hasPrefix("VTB Debit") } }
        #expect(balance(ignored.stdout) == balance(counted.stdout))
        let bad = cli.run(today + screen + ["--overdue", "skip"])
        #expect(bad.status == 64 && bad.stderr == "capital: error: --overdue 'skip': expected count or ignore\n", "\(bad)")
    }

    /// The property: on the sample with random hand-recorded payments (on time, early, late,
    /// partial and named) and random `post` runs between them, every account's balance and
    /// can-spend equal those of the same ledger with everything posted instead, give or take
    /// what partial payments left unpaid.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func recordingByHandAnswersAsPostingWould(seed: UInt64) throws {
        var random = Hostile(seed: seed)
        let end = "2025-05-31"
        // The reference runs the same post runs, everything else posted instead of recorded: a
        // card's paybacks follow its balance on the day each run looks at it.
        let reference = try CLI.household()
        let cli = try CLI.household()
        let flows = try cli.rows(["--today", "2025-04-01", "expected", "list", "--open", "--from", "2025-04-01", "--until", end])
            .filter {
                ["loan", "deposit"].contains($0.string("kind")) || ["Salary Anna", "Rent from tenants", "Swimming pool"].contains($0.string("payee"))
            }
        #expect(flows.count >= 8 && flows.filter { $0.string("kind") == "deposit" }.count == 2)
        var unpaid: [String: Int64] = [:]
        var lastPost = "2025-03-31"
        for flow in flows {
            let ref = try #require(flow.string("ref"))
            let day = try Day(iso: try #require(flow.string("date")))
            let text = try #require(flow.string("amount"))
            let amount = try #require(minorUnits(text))
            // Now and then a post run up to a few days before this flow (never past it).
            if random.below(3) == 0 {
                let until = max(try Day(iso: lastPost), day.advanced(by: -(4 + random.below(5)))).iso
                cli.ok(["--today", "2025-06-01", "post", "--until", until])
                reference.ok(["--today", "2025-06-01", "post", "--until", until])
                lastPost = until
            }
            guard try Self.state(cli, ref, today: "2025-06-01") == "open" else { continue }
            let (from, to) = try Self.accounts(of: ref, in: cli)
            // A deposit's interest paid short would earn less later: paid whole or left to post.
            switch flow.string("kind") == "deposit" ? [0, 2][random.below(2)] : random.below(5) {
            case 0: continue  // left for the last post run
            case 1:
                // Partial and named: a schedule's occurrence is paid less; a loan's rest stays
                // owed, and the last post run pays it (issue 50, item 5.2).
                let short = Int64(1 + random.below(50)) * 100
                if flow.string("kind") != "loan" {
                    unpaid[from, default: 0] += short
                    unpaid[to, default: 0] -= short
                }
                let result = Self.pay(cli, today: "2025-06-01", on: day, amount - short, from: from, to: to, settles: ref)
                #expect(result.status == 0 && result.stderr.contains("less)"), "\(ref): \(result)")
            default:
                // A deposit credited a day early earns a day more: its credits come on their day.
                let shift = flow.string("kind") == "deposit" ? 0 : [0, -1, 2, 1][random.below(4)]
                let result = Self.pay(cli, today: "2025-06-01", on: day.advanced(by: shift), amount, from: from, to: to)
                #expect(result.status == 0 && result.stderr.contains("capital: note: settles "), "\(ref) \(shift): \(result)")
            }
        }
        cli.ok(["--today", "2025-06-01", "post"])
        reference.ok(["--today", "2025-06-01", "post"])
        // Open still: only what waits for approval and the unpaid bills, as in the reference.
        let open = try cli.rows(["--today", "2025-06-01", "expected", "list", "--open", "--from", "2025-04-01", "--until", "2025-05-31"])
        let waiting = try reference.rows(["--today", "2025-06-01", "expected", "list", "--open", "--from", "2025-04-01", "--until", "2025-05-31"])
        #expect(open.map { $0.string("ref") } == waiting.map { $0.string("ref") } && open.allSatisfy { $0.string("kind") != "loan" })
        var want = try Self.balances(reference, today: "2025-06-01")
        for (account, difference) in unpaid { want[account, default: 0] += difference }
        #expect(try Self.balances(cli, today: "2025-06-01") == want, "seed \(seed)")
        // Level 4 holds the debit and cash accounts and the card's credit.
        let short = unpaid.filter { ["VTB Debit", "Cash", "Tinkoff Card"].contains($0.key) }.values.reduce(0, +)
        let (got, wanted) = (try Self.canSpend(cli, today: "2025-06-01"), try Self.canSpend(reference, today: "2025-06-01"))
        #expect(got == wanted + short, "seed \(seed): \(got) vs \(wanted) + \(short); \(unpaid)")
    }

    /// The same property on generated ledgers (`sample generate`, seeded): occurrences of their
    /// fixed, automatic schedules recorded by hand — on the day, early, late, or short and named —
    /// between random post runs end where posting everything ends, give or take what was paid short.
    @Test(arguments: [21, 22] as [UInt64])
    func recordingByHandOnAGeneratedLedgerAnswersAsPostingWould(seed: UInt64) throws {
        var random = Hostile(seed: seed)
        let cli = try CLI()
        let file = cli.path("generated.yaml")
        cli.ok(["sample", "generate", "--rules", "16", "--years", "1", "--seed", String(seed), "--out", file])
        let reference = try CLI()
        for ledger in [cli, reference] { ledger.ok(["--today", "2025-01-01", "import", file]) }
        let kinds = Dictionary(
            uniqueKeysWithValues: try cli.rows(["account", "list", "--all"]).map { ($0.string("name") ?? "", $0.string("kind") ?? "") })
        // Two-posting schedules of a fixed amount, posted without approval, between accounts no card
        // pays back (a card's payback follows its balance, which a short payment would change).
        var moves: [String: (from: String, to: String)] = [:]
        for schedule in try cli.rows(["schedule", "list"]) {
            guard schedule.string("approval") == "auto", let amount = schedule.string("amount"), !amount.contains(".."),
                let from = (schedule["from"] as? [String])?.first, let to = (schedule["to"] as? [String])?.first,
                kinds[from] != "credit-card", kinds[to] != "credit-card"
            else { continue }
            moves[try #require(schedule.string("name"))] = (from, to)
        }
        // A few occurrences of each, so that every schedule gets its turn.
        var taken: [String: Int] = [:]
        let flows = try cli.rows([
            "--today", "2025-01-01", "expected", "list", "--open", "--kind", "schedule", "--from", "2025-01-01", "--until", "2025-12-31",
        ])
        .filter { flow in
            let name = String((flow.string("ref") ?? "").split(separator: "@").first ?? "")
            guard moves[name] != nil, taken[name, default: 0] < 3 else { return false }
            taken[name, default: 0] += 1
            return true
        }
        #expect(flows.count >= 10, "seed \(seed): \(flows.count) flows")
        var unpaid: [String: Int64] = [:]
        var lastPost = "2024-12-31"
        for flow in flows {
            let ref = try #require(flow.string("ref"))
            let (from, to) = try #require(moves[String(ref.split(separator: "@")[0])])
            let day = try Day(iso: try #require(flow.string("date")))
            let text = try #require(flow.string("amount"))
            let amount = try #require(minorUnits(text))
            if random.below(4) == 0 {
                let until = max(try Day(iso: lastPost), day.advanced(by: -(2 + random.below(4)))).iso
                for ledger in [cli, reference] { ledger.ok(["--today", "2026-01-01", "post", "--until", until]) }
                lastPost = until
            }
            guard try Self.state(cli, ref, today: "2026-01-01") == "open" else { continue }
            switch random.below(5) {
            case 0: continue  // left for the last post run
            case 1 where amount > 100:
                let short = Int64(1 + random.below(Int(min(amount - 1, 5_000))))
                unpaid[from, default: 0] += short
                unpaid[to, default: 0] -= short
                let result = Self.pay(cli, today: "2026-01-01", on: day, amount - short, from: from, to: to, settles: ref)
                #expect(result.status == 0 && result.stderr.contains("less)"), "\(ref): \(result)")
            default:
                // Matched: the nearest open occurrence of the same amount (a daily rule's neighbour
                // may be the one settled; the other is then posted, and the sums are the same).
                let shift = [0, -1, 2, 1][random.below(4)]
                let result = Self.pay(cli, today: "2026-01-01", on: day.advanced(by: shift), amount, from: from, to: to)
                #expect(result.status == 0 && result.stderr.contains("capital: note: settles "), "\(ref) \(shift): \(result)")
            }
        }
        for ledger in [cli, reference] { ledger.ok(["--today", "2026-01-01", "post"]) }
        var want = try Self.balances(reference, today: "2026-01-01")
        for (account, difference) in unpaid { want[account, default: 0] += difference }
        #expect(try Self.balances(cli, today: "2026-01-01") == want, "seed \(seed)")
        // Can-spend, or how far below the floor the binding day is when nothing can be spent.
        func headroom(_ ledger: CLI) throws -> Int64 {
            let answer = try #require(try ledger.json(["--today", "2026-01-01", "can-spend", "--why"]) as? [String: Any])
            let amount = try #require(minorUnits(answer.string("amount") ?? ""))
            return amount > 0 ? amount : -(try #require(minorUnits(answer.string("shortfall") ?? "")))
        }
        let short = unpaid.filter { ["cash", "debit", "credit-card"].contains(kinds[$0.key]) }.values.reduce(0, +)
        let (got, wanted) = (try headroom(cli), try headroom(reference))
        #expect(got == wanted + short, "seed \(seed): \(got) vs \(wanted) + \(short); \(unpaid)")
    }

    /// A deposit's credits: listed, posted, settled by a credit recorded by hand or by the payout's
    /// transfer (its last interest split out), skipped and reopened; its balance holds what was
    /// recorded, and the forecast counts each credit once.
    @Test func aDepositsCreditsAreExpectedFlows() throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-12"]
        let list = try cli.rows(today + ["expected", "list", "--kind", "deposit", "--from", "2025-04-01", "--until", "2025-08-31"])
        #expect(list.map { $0.string("ref") ?? "" } == ["04-10", "05-10", "06-10", "07-10", "08-10"].map { "Sber Deposit@2025-\($0)" })
        #expect(list.allSatisfy { $0.string("state") == "open" } && list.last?.string("payee") == "Sber Deposit paid out")
        let april = try #require(list.first?.string("amount"))
        // Open and overdue: not in the balance, in the forecast (today), said out loud.
        let before = try Self.balances(cli, today: "2025-04-12")["Sber Deposit"]
        let canSpend = try Self.canSpend(cli, today: "2025-04-12")
        let overdue = try cli.rows(today + ["expected", "list", "--overdue", "--kind", "deposit"])
        #expect(overdue.map { $0.string("ref") } == ["Sber Deposit@2025-04-10"])
        // Recorded by hand with the expected amount: it settles, the balance gains it, the answer stays.
        let earned = cli.run(today + ["earn", april, "Interest", "--to", "Sber Deposit", "--on", "2025-04-10"])
        #expect(
            earned.status == 0 && earned.stderr == "capital: note: settles Sber Deposit interest of 2025-04-10 (Sber Deposit@2025-04-10)\n",
            "\(earned)")
        #expect(try Self.balances(cli, today: "2025-04-12")["Sber Deposit"] == (before ?? 0) + (minorUnits(april) ?? 0))
        #expect(try Self.canSpend(cli, today: "2025-04-12") == canSpend)
        #expect(try Self.state(cli, "Sber Deposit@2025-04-10", today: "2025-04-12") == "settled")
        // Posting the rest up to maturity, or recording the payout as the bank shows it, gives one answer.
        let reference = try CLI.household()
        reference.ok(["--today", "2025-08-12", "post"])
        cli.ok(["--today", "2025-08-12", "post", "--until", "2025-07-31"])
        let payout = try #require(
            try cli.rows(["--today", "2025-08-12", "expected", "list", "--kind", "deposit", "--open"]).first {
                $0.string("ref") == "Sber Deposit@2025-08-10"
            })
        let sum = try #require(payout.string("amount"))
        let moved = cli.run(["--today", "2025-08-12", "transfer", sum, "--from", "Sber Deposit", "--to", "VTB Debit", "--on", "2025-08-11"])
        #expect(moved.status == 0 && moved.stderr.contains("settles Sber Deposit paid out of 2025-08-10"), "\(moved)")
        cli.ok(["--today", "2025-08-12", "post"])
        let after = try Self.balances(cli, today: "2025-08-12")
        let want = try Self.balances(reference, today: "2025-08-12")
        #expect(after["Sber Deposit"] == 0 && after["Interest"] == want["Interest"] && after["VTB Debit"] == want["VTB Debit"])
        #expect(try Self.canSpend(cli, today: "2025-08-12") == (try Self.canSpend(reference, today: "2025-08-12")))
        // The transfer now carries the last interest from its category, as post writes it.
        #expect(try cli.rows(["tx", "list", "--account", "Interest"]).contains { $0.string("date") == "2025-08-11" })

        // Skipping a credit leaves it out, and what it would have earned: the payout is less.
        let skipping = try CLI.household()
        func paidOut() throws -> Int64 {
            let rows = try skipping.rows(today + ["expected", "list", "--kind", "deposit", "--from", "2025-08-10", "--until", "2025-08-10"])
            return try #require(rows.first?.string("amount").flatMap(minorUnits))
        }
        let whole = try paidOut()
        skipping.ok(today + ["expected", "skip", "Sber Deposit@2025-05-10"])
        let less = try paidOut()
        let may = try #require(list.first { $0.string("ref") == "Sber Deposit@2025-05-10" }?.string("amount").flatMap(minorUnits))
        #expect(whole - less > may && whole - less < may + may / 10, "the May interest and what it would have earned: \(whole) → \(less)")
        skipping.ok(today + ["expected", "reopen", "Sber Deposit@2025-05-10"])
        #expect(try paidOut() == whole)
        // Bad input: a posted one cannot be skipped; a credit is not settled by a move between other accounts.
        let posted = cli.run(["--today", "2025-08-12", "expected", "skip", "Sber Deposit@2025-06-10"])
        #expect(
            posted.status != 0 && posted.stderr.hasPrefix("capital: error: REF 'Sber Deposit@2025-06-10': it is already posted by transaction "),
            "\(posted)")
        let wrong = skipping.run(today + ["transfer", "10", "--from", "VTB Debit", "--to", "Cash", "--settles", "Sber Deposit@2025-05-10"])
        #expect(
            wrong.status != 0
                && wrong.stderr
                    == "capital: error: --settles 'Sber Deposit@2025-05-10': it moves 'Interest' and 'Sber Deposit'; this transaction does not move them the same way\n",
            "\(wrong)")
        // The marks and the history travel in the ledger file.
        let file = cli.path("ledger.yaml")
        cli.ok(["export", "--out", file])
        #expect(cli.ok(["import", file]).contains("nothing new"))
        let copy = try CLI()
        copy.ok(["import", file])
        let window = [
            "--today", "2025-08-12", "expected", "list", "--kind", "deposit", "--from", "2025-04-01", "--until", "2025-08-31", "--format", "csv",
        ]
        #expect(copy.ok(window) == cli.ok(window))
    }

    /// A budget's periods: what each still expects is an expected flow, open or skipped; skipping
    /// one takes exactly that out of the forecast, reopening puts it back; spending uses it up, so
    /// it is never settled or posted; skips travel in the ledger file.
    @Test func aBudgetsPeriodsAreExpectedFlows() throws {
        let cli = try CLI.household()
        let today = ["--today", "2025-04-12"]
        let list = try cli.rows(today + ["expected", "list", "--kind", "budget", "--until", "2025-05-31"])
        // A day's budgets by their category's name (issue 51, item 13).
        #expect(
            list.map { $0.string("ref") ?? "" } == [
                "Entertainment budget@2025-04-01", "Groceries budget@2025-04-01", "Entertainment budget@2025-05-01", "Groceries budget@2025-05-01",
            ])
        #expect(list[1].string("date") == "2025-04-12" && list[3].string("date") == "2025-05-01" && list.allSatisfy { $0.string("state") == "open" })
        // The forecast spends it: April's groceries come before the binding day, so skipping them
        // gives exactly that much more to spend.
        let april = try #require(list[1].string("amount").flatMap(minorUnits))
        #expect(april > 0)
        let before = try Self.canSpend(cli, today: "2025-04-12")
        cli.ok(today + ["expected", "skip", "Groceries budget@2025-04-01"])
        #expect(try Self.canSpend(cli, today: "2025-04-12") == before + april)
        #expect(try Self.state(cli, "Groceries budget@2025-04-01", today: "2025-04-12") == "skipped")
        // Never posted; a transaction does not settle it.
        let dry = try #require(try cli.json(today + ["post", "--dry-run"]) as? [String: Any])
        #expect(try #require(dry["posted"] as? [[String: Any]]).allSatisfy { $0.string("kind") != "budget" })
        let settle = cli.run(today + ["spend", "100", "Groceries", "--settles", "Groceries budget@2025-05-01"])
        #expect(
            settle.status != 0
                && settle.stderr
                    == "capital: error: --settles 'Groceries budget@2025-05-01': a budget's period is used up by what is spent on its category, not settled by one transaction\n",
            "\(settle)")
        let unknown = cli.run(today + ["expected", "skip", "Pets budget@2025-05-01"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no schedule, loan, deposit or budget is named 'Pets budget'"), "\(unknown)")
        // The skip travels in the ledger file, and only on a period's first day.
        let file = cli.path("ledger.yaml")
        cli.ok(["export", "--out", file])
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("    skipped:\n      - 2025-04-01\n"))
        let copy = try CLI()
        copy.ok(["import", file])
        let window = today + ["expected", "list", "--kind", "budget", "--until", "2025-05-31", "--format", "csv"]
        #expect(copy.ok(window) == cli.ok(window))
        let bad = cli.path("bad.yaml")
        try text.replacingOccurrences(of: "      - 2025-04-01\n", with: "      - 2025-04-03\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try CLI()
        let result = refused.run(["import", bad])
        #expect(result.status != 0 && result.stderr.contains("'2025-04-03': not the first day of a monthly period (2025-04-01)"), "\(result)")
        // Reopened, the forecast spends it again.
        cli.ok(today + ["expected", "reopen", "Groceries budget@2025-04-01"])
        #expect(try Self.canSpend(cli, today: "2025-04-12") == before)
    }

    /// The accounts a flow moves money from and to, from its schedule or loan.
    static func accounts(of ref: String, in cli: CLI) throws -> (from: String, to: String) {
        let name = String(ref[..<ref.lastIndex(of: "@")!])
        if ["Mortgage", "VTB Loan", "Car Loan"].contains(name) { return ("VTB Debit", name) }
        if name == "Sber Deposit" { return ("Interest", name) }
        // Postings as objects: the one given is `to`, the one taken `from`.
        let schedule = try #require(try cli.json(["schedule", "show", name]) as? [String: Any])
        let postings = try #require(schedule["postings"] as? [[String: Any]])
        func account(negative: Bool) throws -> String {
            try #require(postings.first { ($0.string("amount") ?? "").hasPrefix("-") == negative }?.string("account"))
        }
        return (try account(negative: true), try account(negative: false))
    }

    /// Records by hand that `amount` moved from `from` to `to` on `day`, naming the flow it settles or not.
    static func pay(_ cli: CLI, today: String, on day: Day, _ amount: Int64, from: String, to: String, settles ref: String? = nil) -> CLI.Result {
        cli.run(
            ["--today", today, "tx", "add", "--on", day.iso, "--posting", "\(to)=\(decimal(amount))", "--posting", from]
                + (ref.map { ["--settles", $0] } ?? []))
    }

    static func decimal(_ minor: Int64) -> String { "\(minor / 100).\(String(format: "%02d", minor % 100))" }
}
