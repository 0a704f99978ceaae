#if canImport(CryptoKit)
    import CryptoKit
#else
    import CLibcrypto
#endif

/// One-shot digests for request signing (AWS Signature Version 4).
public enum Digest {
    /// HMAC-SHA256 of `data` with `key`.
    public static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
            let code = HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key))
            return Array(code)
        #else
            var output = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 32
            _ = HMAC(EVP_sha256(), key, Int32(key.count), data, data.count, &output, &length)
            return output
        #endif
    }

    /// SHA-256 of `bytes` as 32 bytes.
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let hasher = DigestHasher()
        hasher.update(bytes)
        return hex(decoding: hasher.finalizeHex())
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { bytes.withUnsafeBytes { sha256($0) } }

    /// Lowercase hex of bytes.
    public static func hex(_ bytes: [UInt8]) -> String {
        // Written as ASCII bytes straight into the string's storage: one allocation, no
        // `Character` appends (a SHA-256 per imported photo goes through here).
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            for (position, byte) in bytes.enumerated() {
                text[2 * position] = hexDigit(byte >> 4)
                text[2 * position + 1] = hexDigit(byte & 15)
            }
            return bytes.count * 2
        }
    }

    /// The ASCII lower-case digit of a value from 0 to 15.
    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 48 + value : 87 + value }

    static func hex(decoding text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for unit in text.utf8 {
            let value: UInt8 = unit <= 57 ? unit - 48 : unit - 87
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }
}
