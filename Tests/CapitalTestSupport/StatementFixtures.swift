/// A Russian bank's CSV export with its footers, and the hledger rules that leave them out as
/// hledger 1.25 does: totals of two fields skipped by `if ^Итого` + `skip`, reading stopped at
/// `Исходящий остаток` by `end` (the line after it is never read).
public enum RussianBankExport {
    public static let rules = """
        skip 1
        separator ;
        fields date, payee, amount
        date-format %d.%m.%Y
        decimal-mark ,
        description %payee

        if ^Итого
          skip

        if ^Исходящий остаток
          end
        """

    public static let csv = """
        Дата;Описание;Сумма
        01.04.2025;ПЯТЁРОЧКА;-1234,50
        02.04.2025;ЗАРПЛАТА;180000,00
        Итого поступлений;180000,00
        Итого списаний;1234,50
        Исходящий остаток;178765,50
        03.04.2025;after the end;-1,00

        """
}
