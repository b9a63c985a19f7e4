// libFuzzer target: ledger files (YAML and JSON) through LedgerFile.parse, and those that parse
// through LedgerDocument.resolve (what -f does) and an import into an empty in-memory store.
// Built and run by Scripts/fuzz/run.sh. A crash, a hang (-timeout) or an error message on more
// than one line (abort below) is a finding: libFuzzer writes the input to a crash-*/timeout-*
// file, which becomes a fixture under Tests/Fixtures/fuzz/.
import CapitalCore
import CapitalStore

#if canImport(Glibc)
    import Glibc
#endif

/// Aborts when an error message has a line break: the CLI prints it as one stderr line.
@inline(never)
func requireOneLine(_ message: String) {
    if message.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}" }) {
        fputs("error on more than one line: \(message.debugDescription)\n", stderr)
        abort()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLedger(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The first byte picks the reader (YAML or JSON), the rest is the file, decoded as a
    // reader would (LedgerFile.read refuses text that is not UTF-8; here it is repaired).
    guard let first = bytes.first else { return 0 }
    let file = first & 1 == 0 ? "fuzz.yaml" : "fuzz.json"
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
    do {
        let document = try LedgerFile.parse(text, file: file)
        do { _ = try document.resolve().ledger } catch { requireOneLine("\(error)") }
        do { _ = try Store.inMemory().importDocument(document) } catch { requireOneLine("\(error)") }
    } catch {
        requireOneLine(error.description)
    }
    return 0
}
