import ArgumentParser
import CapitalOutput
import CapitalStore

/// A kind of terms an account can hold, as `rm` removes them: the kind and its help's example.
protocol RemovableTerms {
    static var terms: Terms { get }
    /// The example its help shows (parsed by `CommandExampleTests`).
    static var example: String { get }
}

/// `loan rm`, `card rm`, `deposit rm`: one command over the three kinds of terms. The terms go
/// (a soft delete, which sync carries); the account and every posted transaction stay.
struct RemoveTerms<Kind: RemovableTerms>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration("rm", "Remove a \(Kind.terms.rawValue)'s terms; its account and posted transactions stay.", example: Kind.example)
    }

    @OptionGroup var global: GlobalOptions
    @Argument(
        help: ArgumentHelp("The \(Kind.terms.rawValue)'s name (its account) or id prefix.", valueName: Kind.terms.rawValue),
        completion: .termsNames(Kind.terms))
    var reference: String

    func run() throws {
        let output = try global.writeOutput()
        let store = try global.ledgerStore(writing: true)
        let removed = try store.removeTerms(Kind.terms, reference)
        let name = try store.account(removed.accountID).name
        try output.said("Removed \(Kind.terms.rawValue) '\(name)'; its account stays.") { Report.removed(removed.id, [("name", name)]) }
    }
}

enum LoanTerms: RemovableTerms {
    static let terms = Terms.loan
    static let example = "capital loan rm \"Car loan\""
}

enum CardTerms: RemovableTerms {
    static let terms = Terms.card
    static let example = "capital card rm \"Tinkoff Platinum\""
}

enum DepositTerms: RemovableTerms {
    static let terms = Terms.deposit
    static let example = "capital deposit rm \"Savings deposit\""
}
