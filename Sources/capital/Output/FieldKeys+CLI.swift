import CapitalCore
import CapitalStore

/// The one table from the field keys below the command line (`{moveTo}` in a store or engine
/// error, `KitError.Field` in a use case's) to its words: flags, and commands for remedies.
enum Flags {
    /// The running command's own names for some keys (`SpellsFields`): `NAME` for `{account}` in
    /// `card add NAME`. Set around the command's run and the spelling of its errors.
    @TaskLocal static var names: [String: String] = [:]

    /// Keys whose flag is not `--` and the key in kebab case.
    private static let exceptions: [String: String] = [
        "database": "--db", "file": "-f", "scheduleName": "--name",
    ]

    /// The flag a key is given by: `moveTo` → `--move-to`, `database` → `--db`.
    static func flag(_ key: String) -> String {
        // A part of a record (`prepayments.1.amount`) is given by its own field's flag.
        let key = key.split(separator: ".").last.map(String.init) ?? key
        if let name = names[key] { return name }
        if let flag = exceptions[key] { return flag }
        var flag = "--"
        for character in key {
            if character.isUppercase { flag += "-" + character.lowercased() } else { flag.append(character) }
        }
        return flag
    }

    /// A message template with its keys spelled as flags.
    static func spell(_ template: String) -> String { FieldKeys.spell(template, flag) }

    /// A store error in the command line's words.
    static func message(_ error: StoreError) -> String { spell(error.message(remedy: remedy)) }

    /// A store's remedy as the command that helps.
    static func remedy(_ remedy: StoreError.Remedy) -> String {
        switch remedy {
        case .list(let what): "see `capital \(what) list`"
        case .didYouMean: remedy.plain
        case .noGroupsYet: "there are no groups yet; add one with `capital group add`"
        case .noTerms(let account, let kind): "account '\(account)' has no \(kind) terms; see `capital \(kind) list`"
        case .listAllDues: "`capital due list --all` shows them"
        case .listBudgets: "`capital budget list` shows the budgets"
        case .listTransactions: "of an id from `capital tx list`"
        case .seeAccounts: "see `capital account`"
        case .moveOrHideCategory(let name):
            "move them to another category with `capital account rm '\(name)' --move-to OTHER`, or hide it with `capital account rm '\(name)' --hide`"
        case .changeOrHideCategory(let name): "change or remove those first, or hide it with `capital account rm '\(name)' --hide`"
        case .dryRunPost: "see `capital post --dry-run`"
        case .setPayFrom(let due): "give --from ACCOUNT, or set one with `due edit \(due) --from` or `account edit ACCOUNT --default`"
        case .check: "run `capital check` to see what else is wrong"
        case .checkDamage: "run `capital check` to see what is damaged"
        case .initialize: "run `capital init` (or `capital import FILE`) first"
        case .importFile(let path): "import it with `capital import \(path)` to change it"
        case .payDue(let number): "record a payment with `capital due pay \(number) AMOUNT`, or change it with `capital due edit \(number)`"
        case .reopenSettled(let id): "`capital tx rm \(id)` removes it and opens the flow, or give --force to count both"
        }
    }
}

/// Any error in the command line's words: a store error with its remedies as commands, an
/// engine error with its field keys as flags, anything else as it describes itself.
func spelled(_ error: any Error) -> String {
    if let error = error as? StoreError { return Flags.message(error) }
    if let error = error as? any KeyedError { return Flags.spell(error.template) }
    return "\(error)"
}

/// A command that gives some fields as arguments rather than by their flags: its errors name
/// those fields as its usage does (`card add NAME`, `loan prepay NAME AMOUNT`).
protocol SpellsFields {
    /// Field key → the argument's name in the usage line (or the flag that differs from the key's).
    static var fieldNames: [String: String] { get }
}
