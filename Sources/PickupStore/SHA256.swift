#if canImport(CryptoKit)
    import CryptoKit
#else
    import CLibcrypto
#endif

/// SHA-256 through the platform's crypto: CryptoKit on Apple platforms,
/// OpenSSL's libcrypto (with the CPU's SHA instructions) on Linux.
///
/// Not `Sendable`: one owner per hashing context, freed in `deinit`.
public final class SHA256Hasher {
    #if canImport(CryptoKit)
        private var hasher = CryptoKit.SHA256()
    #else
        private let context: OpaquePointer
    #endif

    public init() {
        #if !canImport(CryptoKit)
            // EVP_MD_CTX_new only fails when memory runs out; nothing sensible follows that.
            guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto could not allocate a digest context") }
            self.context = context
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        #endif
    }

    deinit {
        #if !canImport(CryptoKit)
            EVP_MD_CTX_free(context)
        #endif
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        #if canImport(CryptoKit)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: base, count: bytes.count))
        #else
            EVP_DigestUpdate(context, base, bytes.count)
        #endif
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest as 64 lowercase hex digits. The hasher cannot be used after.
    public func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        #if canImport(CryptoKit)
            digest = Array(hasher.finalize())
        #else
            var length: UInt32 = 32
            EVP_DigestFinal_ex(context, &digest, &length)
        #endif
        let hex: [Character] = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(64)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return text
    }
}

/// SHA-1, for tus's `Upload-Checksum` (the algorithm tus servers commonly offer).
///
/// Not `Sendable`: one owner per hashing context, freed in `deinit`.
public final class SHA1Hasher {
    #if canImport(CryptoKit)
        private var hasher = Insecure.SHA1()
    #else
        private let context: OpaquePointer
    #endif

    public init() {
        #if !canImport(CryptoKit)
            guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto could not allocate a digest context") }
            self.context = context
            EVP_DigestInit_ex(context, EVP_sha1(), nil)
        #endif
    }

    deinit {
        #if !canImport(CryptoKit)
            EVP_MD_CTX_free(context)
        #endif
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        #if canImport(CryptoKit)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: base, count: bytes.count))
        #else
            EVP_DigestUpdate(context, base, bytes.count)
        #endif
    }

    /// The 20-byte digest. The hasher cannot be used after.
    public func finalize() -> [UInt8] {
        #if canImport(CryptoKit)
            return Array(hasher.finalize())
        #else
            var digest = [UInt8](repeating: 0, count: 20)
            var length: UInt32 = 20
            EVP_DigestFinal_ex(context, &digest, &length)
            return digest
        #endif
    }
}
