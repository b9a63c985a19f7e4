import Foundation
import Testing

@testable import CapitalCore

/// Annuity loans against numpy-financial and an exact decimal reference, on the 600 loans of
/// `Tests/Fixtures/loans-numpy.json` written by `Scripts/loan-fixtures.py` (principal 0.01 to
/// 100 000 000.00, rate 0–40 % with up to four decimals, term 1–360 months).
@Suite("Loans against numpy-financial")
struct LoanFixtureTests {
    struct Entry: Decodable {
        var principal: Int64
        var rate: String
        var term: Int
        /// numpy-financial's `-pmt`, `-ipmt`, `-ppmt`, in minor units.
        var pmt: Double
        var ipmt: [Double]
        var ppmt: [Double]
        /// Python `decimal` at 50 digits: the payment rounded half-up, each period's interest
        /// on the rounded balance rounded half-up, the last payment absorbing the rest.
        var roundedPayment: Int64
        var finalPayment: Int64
        var totalInterest: Int64
        var interest: [Int64]

        /// Whether the reference's balance stays above 0 until its last period: a payment
        /// rounded up on a tiny loan at a high rate can overshoot it, where capital ends the loan
        /// a payment early instead of following the formula below zero.
        var referenceStaysPositive: Bool {
            var balance = principal
            for k in 0..<(term - 1) {
                balance -= roundedPayment - interest[k]
                if balance <= 0 { return false }
            }
            return true
        }
    }

    struct File: Decodable { var loans: [Entry] }

    static let loans: [Entry] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/loans-numpy.json")
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url)).loans
    }()

    static let start = try! Day(iso: "2025-01-15")

    static func loan(_ entry: Entry) throws -> Loan {
        try Loan(principal: entry.principal, rate: Rate(parsing: entry.rate), term: entry.term, start: start)
    }

    @Test func thePaymentIsNumpysRoundedToMinorUnits() throws {
        #expect(Self.loans.count >= 500)
        for entry in Self.loans {
            let payment = try Loan.annuityPayment(principal: entry.principal, rate: Rate(parsing: entry.rate), count: entry.term)
            // Exactly the decimal reference; numpy's float within half a unit (plus its own error).
            #expect(payment == entry.roundedPayment, "\(entry.principal) at \(entry.rate) % over \(entry.term)")
            #expect(abs(Double(payment) - entry.pmt) <= 0.5 + entry.pmt * 1e-9, "\(entry.principal) at \(entry.rate) % over \(entry.term)")
        }
    }

    @Test func everyPeriodsInterestIsWithinOneMinorUnitOfTheRateOnCapitalsOwnBalance() throws {
        for entry in Self.loans {
            let schedule = try Self.loan(entry).amortize()
            let monthly = try Double(Rate(parsing: entry.rate).perMillion) / 12_000_000
            var balance = entry.principal
            for row in schedule.rows {
                #expect(abs(Double(row.interest) - Double(balance) * monthly) <= 1, "\(entry.principal) at \(entry.rate) %, payment \(row.n)")
                #expect(row.payment == row.interest + row.principal)
                balance -= row.principal
                #expect(row.balance == balance)
                #expect(balance >= 0)
            }
            #expect(schedule.rows.reduce(0) { $0 + $1.principal } == entry.principal)
            #expect(schedule.rows.last?.balance == 0)
            #expect(schedule.rows.count <= entry.term)
            #expect(schedule.totalInterest == schedule.rows.reduce(0) { $0 + $1.interest })
        }
    }

    @Test func theScheduleIsTheDecimalReferenceToTheMinorUnit() throws {
        var compared = 0
        for entry in Self.loans where entry.referenceStaysPositive {
            let schedule = try Self.loan(entry).amortize()
            let label = "\(entry.principal) at \(entry.rate) % over \(entry.term)"
            #expect(schedule.rows.map(\.interest) == entry.interest, "\(label)")
            #expect(schedule.rows.count == entry.term, "\(label)")
            #expect(schedule.rows.last?.payment == entry.finalPayment, "\(label)")
            #expect(schedule.totalInterest == entry.totalInterest, "\(label)")
            #expect(schedule.rows.dropLast().allSatisfy { $0.payment == entry.roundedPayment }, "\(label)")
            compared += 1
        }
        #expect(compared >= 500)
    }

    /// numpy's interest and principal split, period by period, for loans where rounding cannot
    /// drift far (the unrounded schedule and capital's differ by the rounding carried so far).
    @Test func theSplitFollowsNumpysIpmtAndPpmt() throws {
        for entry in Self.loans where entry.referenceStaysPositive && entry.term <= 120 && entry.principal >= 100_000 {
            let rows = try Self.loan(entry).amortize().rows
            for (k, row) in rows.enumerated() {
                #expect(abs(Double(row.interest) - entry.ipmt[k]) <= 1 + Double(k), "\(entry.principal) at \(entry.rate) %, payment \(k + 1)")
                if k < rows.count - 1 {
                    #expect(abs(Double(row.principal) - entry.ppmt[k]) <= 1 + Double(k), "\(entry.principal) at \(entry.rate) %, payment \(k + 1)")
                }
            }
        }
    }

    /// The floating-point estimate and the exact integer path agree wherever the estimate decides:
    /// on every fixture loan and on 3 000 more drawn at random (rates to four decimals, terms to
    /// 360 months, principals to 10^13 minor units).
    @Test func theExactPathAgreesWithTheEstimate() throws {
        var cases: [(Int64, Rate, Int)] = try Self.loans.filter { $0.rate != "0" }.map { ($0.principal, try Rate(parsing: $0.rate), $0.term) }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            cases.append(
                (
                    Int64.random(in: 1...10_000_000_000_000, using: &random), Rate(perMillion: Int64.random(in: 1...400_000, using: &random)),
                    Int.random(in: 1...360, using: &random)
                ))
        }
        for (principal, rate, term) in cases {
            let fast = try Loan.annuityPayment(principal: principal, rate: rate, count: term)
            let exact = Loan.exactAnnuityPayment(principal: principal, perMillion: rate.perMillion, count: term, near: max(0, fast - 1), .halfUp)
            #expect(fast == exact, "\(principal) at \(rate) over \(term)")
        }
    }
}
