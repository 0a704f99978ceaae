#if canImport(CryptoKit)
    import CryptoKit
#else
    import CLibcrypto
#endif

/// SHA-256 through the platform's crypto: CryptoKit on Apple platforms,
/// OpenSSL's libcrypto (with the CPU's SHA instructions) on Linux.
///
/// Not `Sendable`: one owner per hashing context, freed with it.
public final class SHA256Hasher {
    #if canImport(CryptoKit)
        private var hasher = CryptoKit.SHA256()
    #else
        private let context = EVPContext(EVP_sha256())
    #endif

    public init() {}

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        #if canImport(CryptoKit)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: base, count: bytes.count))
        #else
            context.update(base, bytes.count)
        #endif
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest. The hasher cannot be used after.
    public func finalize() -> [UInt8] {
        #if canImport(CryptoKit)
            return Array(hasher.finalize())
        #else
            return context.finalize(length: 32)
        #endif
    }

    /// The digest as 64 lowercase hex digits. The hasher cannot be used after.
    public func finalizeHex() -> String { Digest.hex(finalize()) }
}

/// SHA-1, for tus's `Upload-Checksum` (the algorithm tus servers commonly offer).
///
/// Not `Sendable`: one owner per hashing context, freed with it.
public final class SHA1Hasher {
    #if canImport(CryptoKit)
        private var hasher = Insecure.SHA1()
    #else
        private let context = EVPContext(EVP_sha1())
    #endif

    public init() {}

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        #if canImport(CryptoKit)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: base, count: bytes.count))
        #else
            context.update(base, bytes.count)
        #endif
    }

    /// The 20-byte digest. The hasher cannot be used after.
    public func finalize() -> [UInt8] {
        #if canImport(CryptoKit)
            return Array(hasher.finalize())
        #else
            return context.finalize(length: 20)
        #endif
    }
}

#if !canImport(CryptoKit)
    /// One libcrypto digest context: one owner, freed in `deinit`.
    final class EVPContext {
        private let context: OpaquePointer

        init(_ algorithm: OpaquePointer?) {
            // EVP_MD_CTX_new only fails when memory runs out; nothing sensible follows that.
            guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto could not allocate a digest context") }
            self.context = context
            EVP_DigestInit_ex(context, algorithm, nil)
        }

        deinit { EVP_MD_CTX_free(context) }

        func update(_ base: UnsafeRawPointer, _ count: Int) { EVP_DigestUpdate(context, base, count) }

        func finalize(length: Int) -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: length)
            var written = UInt32(length)
            EVP_DigestFinal_ex(context, &digest, &written)
            return digest
        }
    }
#endif
