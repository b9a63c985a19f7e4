import Testing

@testable import CapitalCore

@Suite struct HybridClockTests {
    @Test func readingsFollowPhysicalTimeWhenItMovesOn() {
        var clock = HybridClock()
        #expect(clock.tick(now: 1_000) == HybridTimestamp(milliseconds: 1_000, counter: 0))
        #expect(clock.tick(now: 1_005) == HybridTimestamp(milliseconds: 1_005, counter: 0))
    }

    @Test func readingsNeverGoBackwardsWhenPhysicalTimeDoes() {
        var clock = HybridClock()
        var previous = HybridTimestamp.zero
        var random = SplitMix64(seed: 7)
        var now: Int64 = 1_000_000
        for _ in 0..<10_000 {
            now += Int64(random.next() % 2_001) - 1_000  // jumps up to a second either way
            let reading = clock.tick(now: now)
            #expect(reading > previous)
            #expect(reading.milliseconds <= max(now, previous.milliseconds) + 1)
            previous = reading
        }
    }

    @Test func aSeenReadingOrdersEveryLaterEventAfterIt() {
        var phone = HybridClock()
        var laptop = HybridClock()
        let ahead = laptop.tick(now: 9_000)  // the laptop's clock runs ahead
        _ = phone.tick(now: 5_000)
        _ = phone.observe(ahead, now: 5_001)
        let next = phone.tick(now: 5_002)
        #expect(next > ahead)
        #expect(next.milliseconds == 9_000)
    }

    @Test func theCounterOverflowsIntoTheNextMillisecond() {
        var clock = HybridClock(last: HybridTimestamp(milliseconds: 42, counter: .max))
        #expect(clock.tick(now: 10) == HybridTimestamp(milliseconds: 43, counter: 0))
    }

    @Test func theTextFormSortsAsTheReadingsDo() throws {
        let readings = [HybridTimestamp(milliseconds: 1, counter: 2), HybridTimestamp(milliseconds: 1_750_000_000_000, counter: 0), .zero]
        #expect(readings.map(\.description).sorted() == readings.sorted().map(\.description))
        for reading in readings { #expect(HybridTimestamp(reading.description) == reading) }
        #expect(HybridTimestamp("12") == nil)
        #expect(HybridTimestamp("zzzzzzzzzzzzzzzz") == nil)
        #expect(SyncStamp("0000000000000001@phone") == SyncStamp(hlc: HybridTimestamp(rawValue: 1), device: "phone"))
        #expect(SyncStamp("0000000000000001@") == nil)
    }
}

@Suite struct SyncMergeTests {
    private func value(_ text: String, _ hlc: UInt64, _ device: String, base: (UInt64, String)? = nil) -> SyncWinner {
        SyncWinner(
            value: text, stamp: SyncStamp(hlc: HybridTimestamp(rawValue: hlc), device: device),
            base: base.map { SyncStamp(hlc: HybridTimestamp(rawValue: $0.0), device: $0.1) })
    }

    @Test func theHigherStampWinsInEitherOrder() {
        let anna = value("45000", 20, "anna")
        let ivan = value("42000", 10, "ivan")
        #expect(SyncMerge.decide(current: ivan, incoming: anna) == .take(lost: ivan))
        #expect(SyncMerge.decide(current: anna, incoming: ivan) == .keep(lost: ivan))
    }

    @Test func equalReadingsAreOrderedByDevice() {
        let a = value("1", 10, "a")
        let b = value("2", 10, "b")
        #expect(SyncMerge.decide(current: a, incoming: b) == .take(lost: a))
        #expect(SyncMerge.decide(current: b, incoming: a) == .keep(lost: a))
    }

    @Test func anEditOverTheValueItSawIsNoConflict() {
        let first = value("42000", 10, "ivan")
        let edit = value("45000", 20, "anna", base: (10, "ivan"))
        #expect(SyncMerge.decide(current: first, incoming: edit) == .take(lost: nil))
        #expect(SyncMerge.decide(current: edit, incoming: first) == .keep(lost: nil))
    }

    @Test func theSameValueTwiceChangesNothing() {
        let once = value("1", 10, "a")
        #expect(SyncMerge.decide(current: once, incoming: once) == .keep(lost: nil))
        #expect(SyncMerge.decide(current: nil, incoming: once) == .take(lost: nil))
    }
}

@Suite struct SHA256Tests {
    /// FIPS 180-4's examples and the lengths around the padding's edge, against Python's hashlib
    /// (`hashlib.sha256(b"a" * n).hexdigest()`).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        ("кошелёк", "03968a887ba53eb0698b441dbc55e0ca66deef5483ddf33d85bd55230cf285a3"),
    ])
    func digests(text: String, hex: String) {
        #expect(SHA256.hex(text) == hex)
    }

    /// Pieces of every size around a block's 64 bytes, from contiguous storage and from a lazy
    /// sequence, hash as the whole does (Python: `hashlib.sha256(bytes(i % 251 for i in range(10000)))`).
    @Test func piecesHashAsTheWhole() {
        let bytes = (0..<10_000).map { UInt8($0 % 251) }
        let expected = "0cd0bf930677960951dda8588edcb6b293c0c3b26ef3ba72cddff4ddfc6822c7"
        for size in [1, 7, 63, 64, 65, 200, 10_000] {
            var hash = SHA256()
            var lazy = SHA256()
            for start in stride(from: 0, to: bytes.count, by: size) {
                let piece = bytes[start..<min(start + size, bytes.count)]
                hash.update(piece)
                lazy.update(piece.lazy.map { $0 })
            }
            #expect(hash.finalizeHex() == expected, "pieces of \(size)")
            #expect(lazy.finalizeHex() == expected, "lazy pieces of \(size)")
        }
        var text = SHA256()
        for _ in 0..<10 { text.update(String(repeating: "a", count: 100)) }
        #expect(text.finalizeHex() == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func derivedIDsAreVersion8AndStable() {
        let id = DerivedID.uuid("flow/schedule/abc/20250305")
        #expect(id.count == 36)
        #expect(Array(id)[14] == "8")
        #expect("89ab".contains(Array(id)[19]))
        #expect(id == DerivedID.uuid("flow/schedule/abc/20250305"))
        #expect(id != DerivedID.uuid("flow/schedule/abc/20250306"))
    }
}
