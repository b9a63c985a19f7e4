/// SHA-256 (FIPS 180-4), for names that must be the same on every device — ids derived from what
/// they stand for, digests of the shared ledger — not for secrets (the server uses swift-crypto).
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    /// A hash of nothing yet.
    public init() { buffer.reserveCapacity(64) }

    /// Adds `bytes` to what is hashed: whole blocks straight from contiguous storage, the rest
    /// byte by byte.
    /// - Complexity: O(n).
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        for byte in bytes { update(byte) }
    }

    private mutating func update(_ byte: UInt8) {
        buffer.append(byte)
        length &+= 1
        if buffer.count == 64 {
            buffer.withUnsafeBytes { compress($0) }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    private mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var start = 0
        while !buffer.isEmpty && start < bytes.count {
            update(bytes[start])
            start += 1
        }
        while bytes.count - start >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[start..<start + 64]))
            length &+= 64
            start += 64
        }
        for byte in bytes[start...] { update(byte) }
    }

    /// Adds the UTF-8 bytes of `text`.
    public mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The 32 bytes of the hash of everything added.
    public func finalize() -> [UInt8] {
        var copy = self
        let bits = length &* 8
        copy.update([0x80])
        while copy.buffer.count != 56 { copy.update([0]) }
        copy.update((0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) })
        let words = [copy.state.0, copy.state.1, copy.state.2, copy.state.3, copy.state.4, copy.state.5, copy.state.6, copy.state.7]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }

    /// The hash of everything added, as 64 lower-case hexadecimal digits.
    public func finalizeHex() -> String { finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    /// The hash of `text`'s UTF-8 bytes, as 64 lower-case hexadecimal digits.
    public static func hex(_ text: String) -> String {
        var hash = SHA256()
        hash.update(text)
        return hash.finalizeHex()
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Folds one 64-byte block into the state.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
            }
            for i in 16..<64 {
                let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            rounds(w)
        }
    }

    /// The 64 rounds over the message schedule `w`.
    private mutating func rounds(_ w: UnsafeMutableBufferPointer<UInt32>) {
        var (a, b, c, d, e, f, g, h) = state
        for i in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ SHA256.k[i] &+ w[i]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}

/// Ids every device derives alike from what a record stands for (an expected flow's instrument
/// and day): UUIDs of version 8 made of SHA-256 (RFC 9562, appendix B.2's construction), so that
/// posting the same occurrence offline on two phones makes one transaction.
public enum DerivedID {
    /// The id for `name` (e.g. `flow/schedule/ID/20250305`), lower-case 8-4-4-4-12.
    public static func uuid(_ name: String) -> String {
        var hash = SHA256()
        hash.update("capital:")
        hash.update(name)
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3F | 0x80  // variant 10
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let digits = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }
}

private func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
