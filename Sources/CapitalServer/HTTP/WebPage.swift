import CapitalCore
import CapitalStore
import CapitalWeb

/// The web page's HTML: the report (`ReportPage`) of the chosen ledger, live, with the forms of a
/// signed-in member around it; or the sign-in form. Every text escaped (`HTML.escape`), no
/// inline handler; the only style and script are the page's own, which its Content-Security-Policy
/// allows by their hashes.
enum WebPage {
    /// A page and the inline style and script it carries.
    struct Rendered {
        var html: String
        var style: String
        var script: String?
    }

    /// What the forms look like, on the report's colours (its `--fg`, `--rule`, `--panel`…).
    static let formStyle = """
        .bar-top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;font-size:.92rem}
        .bar-top ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
        .bar-top form{margin:0}
        .live{background:var(--panel);border:1px solid var(--rule);border-radius:8px;padding:.5rem 1.25rem 1rem;margin-top:1rem}
        .live h2{margin-top:.75rem}
        .live label{display:block;margin:.5rem 0}
        input,select,button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--rule);border-radius:6px;padding:.5rem;width:100%}
        button{background:var(--line);color:var(--bg);border:0;font-weight:600;cursor:pointer;min-height:2.75rem}
        .bar-top button{width:auto;min-height:0;padding:.3rem .8rem}
        .grid{display:grid;gap:0 1rem;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr))}
        .bill{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr) auto;gap:.5rem;align-items:center;border-bottom:1px solid var(--rule);padding:.5rem 0}
        .bill .what{grid-column:1/-1}
        .bill button{width:auto;min-height:2.5rem;padding:.4rem 1rem}
        .bill .what{overflow-wrap:anywhere}
        .error{color:var(--bad);font-weight:600}
        .done{color:var(--good);font-weight:600}
        """

    /// The sign-in page's own style (it has no report).
    static let plainStyle =
        ":root{color-scheme:light dark;--bg:Canvas;--fg:CanvasText;--rule:#8c959f;--panel:transparent;--line:#0a5bc4;--bad:#b3261e;--good:#17692f}"
        + "*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif}main{max-width:40rem;margin:0 auto;padding:1rem}" + formStyle

    /// A page of `body` with the plain style.
    static func plain(_ title: String, _ body: String) -> Rendered {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>\(HTML.escape(title))</title><style>\(plainStyle)</style>
            </head><body><main>\(body)</main></body></html>

            """
        return Rendered(html: html, style: plainStyle, script: nil)
    }

    static func csrfField(_ csrf: String) -> String { "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\"/>" }

    static func alert(_ message: String?, done: Bool = false) -> String {
        message.map { "<p class=\"\(done ? "done" : "error")\" role=\"\(done ? "status" : "alert")\">\(HTML.escape($0))</p>" } ?? ""
    }

    static func signIn(csrf: String, message: String?) -> Rendered {
        plain(
            "Sign in — capital",
            "<h1>capital</h1>" + alert(message) + "<form method=\"post\" action=\"/session\" class=\"live\">" + csrfField(csrf)
                + "<label>User <input name=\"user\" autocomplete=\"username\" required=\"required\"/></label>"
                + "<label>Password <input name=\"password\" type=\"password\" autocomplete=\"current-password\" required=\"required\"/></label>"
                + "<button type=\"submit\">Sign in</button></form>")
    }

    /// What the signed-in page shows.
    struct Home {
        var user: String
        var ledgers: [SyncWire.Ledger]
        var chosen: SyncWire.Ledger?
        var csrf: String
        /// What went wrong with the last form, or what it did.
        var message: String?
        var done: String?
        /// The chosen ledger's report, when it has an answer; else why not.
        var report: ReportPage?
        var unanswered: String?
        var categories: [String] = []
        var accounts: [String] = []
        /// The accounts money is paid from (cash, debit and credit-card), the first the default.
        /// The account the quick add pays from unless another is chosen: the last one used on this browser.
        var from: String?
        /// The bills and fines to pay, most urgent first, with the account each is paid from when it names one.
        var dues: [(due: Due, from: String?)] = []
        /// What the form last sent, to fill it again when it was refused.
        var entry: [String: String] = [:]
    }

    static func home(_ home: Home) -> Rendered {
        let top = navigation(home)
        // What the last form did, and what can be spent after it: on the first screen of a phone, by the quick add.
        var done = home.done
        if let said = done, let report = home.report {
            let answer = Money(minor: report.overview.canSpend.answer.amount, currency: report.currency)
            done = "\(said) You can spend \(answer.formatted(groupSeparator: "\u{A0}")) \(report.currency.code) today."
        }
        var forms = alert(home.message) + alert(done, done: true)
        var bills = ""
        if let chosen = home.chosen, chosen.role != "viewer" {
            forms += quickAdd(home, ledger: chosen.id)
            bills = self.bills(home, ledger: chosen.id)
        }
        guard var report = home.report else {
            var body = top + "<h1>\(HTML.escape(home.chosen?.name ?? "capital"))</h1>"
            if home.chosen == nil {
                body += "<p>No shared ledger yet: share one from a device with <code>capital sync create</code>.</p>"
            } else {
                body += alert(home.unanswered.map { "No answer yet: \($0)" })
            }
            return plain("\(home.chosen?.name ?? "capital") — capital", body + forms + bills)
        }
        report.live = ReportPage.Live(top: top, beforeAnswer: forms, afterAnswer: bills, style: formStyle)
        return Rendered(html: report.html(), style: report.style, script: report.script)
    }

    /// The ledgers to choose from and the sign-out button.
    static func navigation(_ home: Home) -> String {
        var nav = "<nav class=\"bar-top\" aria-label=\"Ledgers\">"
        if home.ledgers.count > 1 {
            nav +=
                "<ul>"
                + home.ledgers.map { ledger in
                    let current = ledger.id == home.chosen?.id ? " aria-current=\"page\"" : ""
                    return "<li><a href=\"/?ledger=\(HTML.escape(ledger.id))\"\(current)>\(HTML.escape(ledger.name))</a></li>"
                }.joined() + "</ul>"
        } else {
            nav += "<span>\(HTML.escape(home.chosen?.name ?? ""))</span>"
        }
        return nav
            + "<form method=\"post\" action=\"/session/end\">\(csrfField(home.csrf))<button type=\"submit\" id=\"sign-out\">Sign out \(HTML.escape(home.user))</button></form></nav>"
    }

    static func options(_ names: [String], selected: String?) -> String {
        names.map { name in
            "<option" + (name.lowercased() == selected?.lowercased() ? " selected=\"selected\"" : "") + ">\(HTML.escape(name))</option>"
        }.joined()
    }

    /// The quick add: an expense, with the categories and accounts to choose from.
    static func quickAdd(_ home: Home, ledger: String) -> String {
        func value(_ name: String) -> String { home.entry[name].map { " value=\"\(HTML.escape($0))\"" } ?? "" }
        return "<form method=\"post\" action=\"/ledgers/\(HTML.escape(ledger))/entries\" id=\"quick-add\" class=\"live\"><h2>Add an expense</h2>"
            + csrfField(home.csrf) + "<div class=\"grid\">"
            + "<label>Amount <input name=\"amount\" inputmode=\"decimal\" autocomplete=\"off\" required=\"required\"\(value("amount"))/></label>"
            + "<label>Category <select name=\"category\">\(options(home.categories, selected: home.entry["category"]))</select></label>"
            + "<label>From <select name=\"from\">\(options(home.accounts, selected: home.entry["from"] ?? home.from))</select></label>"
            + "<label>Note <input name=\"note\" autocomplete=\"off\"\(value("note"))/></label>"
            + "<label>Spender <input name=\"spender\" autocomplete=\"off\" value=\"\(HTML.escape(home.entry["spender"] ?? home.user))\"/></label>"
            + "</div><button type=\"submit\">Add</button></form>"
    }

    /// The bills and fines to pay, each with what is left in a field and a pay button.
    static func bills(_ home: Home, ledger: String) -> String {
        guard !home.dues.isEmpty else { return "" }
        let today = home.report?.today
        let rows = home.dues.map { due, from -> String in
            let left = Money(minor: due.left, currency: due.currency)
            var when = "due \(due.dueDay.iso)"
            if let today, due.dueDay < today { when += ", overdue" }
            return "<form method=\"post\" action=\"/ledgers/\(HTML.escape(ledger))/dues/\(due.number)/pay\" class=\"bill\">" + csrfField(home.csrf)
                + "<span class=\"what\">#\(due.number) \(HTML.escape(due.reason)) <span class=\"meta\">\(HTML.escape(when)), "
                + "\(HTML.escape(left.formatted(groupSeparator: "\u{A0}"))) \(HTML.escape(due.currency.code)) left</span></span>"
                + "<input name=\"amount\" inputmode=\"decimal\" aria-label=\"Amount to pay on #\(due.number)\" value=\"\(HTML.escape(left.plain))\"/>"
                // The bill's own paying account is offered even when it is not one the page pays from.
                + "<select name=\"from\" aria-label=\"Account to pay #\(due.number) from\">"
                + options(home.accounts + (from.map { own in home.accounts.contains(own) ? [] : [own] } ?? []), selected: from ?? home.from)
                + "</select>"
                + "<button type=\"submit\">Pay</button></form>"
        }
        return "<section class=\"live\" id=\"bills\"><h2>Bills to pay</h2>" + rows.joined() + "</section>"
    }
}
