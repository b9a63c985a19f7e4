import Crypto
import Foundation
import _CryptoExtras

/// Passwords as the server keeps them: checked against the rule below, hashed with scrypt
/// (N = 2^17, r = 8, p = 1, a 16-byte random salt), the parameters stored with the hash so that a
/// hash made with weaker ones is upgraded at the next login.
public enum Passwords {
    /// log2 of scrypt's N for new hashes: 17 (N = 131 072, 128 MB, about half a second).
    public static let standardLogN = 17

    /// Why `password` is too weak (one line naming the rule it breaks), or nil: at least 10
    /// characters, with a digit, an upper-case letter, a lower-case letter and a symbol.
    public static func weakness(_ password: String) -> String? {
        var missing: [String] = []
        if !password.contains(where: \.isNumber) { missing.append("a digit") }
        if !password.contains(where: \.isUppercase) { missing.append("an upper-case letter") }
        if !password.contains(where: \.isLowercase) { missing.append("a lower-case letter") }
        if !password.contains(where: { !$0.isLetter && !$0.isNumber && !$0.isWhitespace }) { missing.append("a symbol") }
        if password.count < 10 { missing.insert("at least 10 characters (it has \(password.count))", at: 0) }
        guard !missing.isEmpty else { return nil }
        return "a password needs " + missing.joined(separator: ", ")
    }

    /// `password` hashed with a new salt: `scrypt$LOGN$R$P$SALT$KEY` (salt and key in hex).
    public static func hash(_ password: String, logN: Int = standardLogN) throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var random = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255, using: &random) }
        let key = try derive(password, salt: salt, logN: logN, r: 8, p: 1)
        return "scrypt$\(logN)$8$1$\(hex(salt))$\(hex(key))"
    }

    /// Whether `password` is the one `stored` was made from (compared in constant time).
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let logN = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
            (10...22).contains(logN), let salt = bytes(parts[4]), let expected = bytes(parts[5]),
            let key = try? derive(password, salt: salt, logN: logN, r: r, p: p, count: expected.count)
        else { return false }
        return key.count == expected.count && zip(key, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether `stored` was made with weaker parameters than a new hash's.
    public static func needsUpgrade(_ stored: String) -> Bool { strength(of: stored) < standardLogN }

    /// log2 of the N `stored` was made with (0 for what is not a hash of ours).
    public static func strength(of stored: String) -> Int {
        let parts = stored.split(separator: "$")
        guard parts.count == 6, parts[0] == "scrypt", let logN = Int(parts[1]) else { return 0 }
        return logN
    }

    private static func derive(_ password: String, salt: [UInt8], logN: Int, r: Int, p: Int, count: Int = 32) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: count, rounds: 1 << logN, blockSize: r, parallelism: p)
        return key.withUnsafeBytes { Array($0) }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let byte = UInt8(String(decoding: utf8[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }
}

/// Bearer tokens: 256 random bits, written base64url; only their SHA-256 is stored.
public enum Tokens {
    /// An access token's life: 1 hour.
    public static let accessLife: Int64 = 3_600_000
    /// A refresh token's life: 7 days (each use replaces it with a new one).
    public static let refreshLife: Int64 = 7 * 86_400_000

    /// A new token.
    public static func make() -> String {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A token a person copies into a command (a password reset's): 64 hex digits, so that it
    /// never begins with "-" and reads the same everywhere.
    public static func makeTyped() -> String {
        var random = SystemRandomNumberGenerator()
        return Passwords.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// What the server stores of `token`: its SHA-256, hex.
    public static func digest(_ token: String) -> String { Passwords.hex(SHA256.hash(data: Array(token.utf8))) }
}
