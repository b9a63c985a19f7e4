import CapitalCore
import CapitalOutput

extension GlobalOptions {
    /// An amount as a table or a sentence shows it: grouped, or hidden with `--hide-amounts`.
    func shown(_ money: Money) -> String { RenderOptions(hideAmounts: hideAmounts).shown(money) }
}

extension GlobalOptions {
    /// How this command's reports draw amounts: hidden with `--hide-amounts`.
    var renderOptions: RenderOptions { RenderOptions(hideAmounts: hideAmounts) }
}
