#if canImport(CryptoKit)
    import CryptoKit
#else
    import CLibcrypto
#endif

/// A message digest through the platform's crypto: CryptoKit on Apple platforms, OpenSSL's
/// libcrypto (with the CPU's SHA instructions) on Linux. SHA-256 for what Pickup stores and
/// sends; SHA-1 for tus's `Upload-Checksum` (the algorithm tus servers commonly offer).
///
/// Not `Sendable`: one owner per hashing context, freed with it.
public final class DigestHasher {
    /// The digests Pickup computes.
    public enum Algorithm: Sendable {
        case sha256, sha1
    }

    #if canImport(CryptoKit)
        private var hasher: any HashFunction
    #else
        private let context: EVPContext
    #endif

    /// A hasher for `algorithm` (SHA-256 unless told).
    public init(_ algorithm: Algorithm = .sha256) {
        #if canImport(CryptoKit)
            switch algorithm {
            case .sha256: hasher = CryptoKit.SHA256()
            case .sha1: hasher = Insecure.SHA1()
            }
        #else
            context = EVPContext(algorithm == .sha256 ? EVP_sha256() : EVP_sha1())
        #endif
    }

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

    /// The digest (32 bytes for SHA-256, 20 for SHA-1). The hasher cannot be used after.
    public func finalize() -> [UInt8] {
        #if canImport(CryptoKit)
            func bytes<Function: HashFunction>(_ function: Function) -> [UInt8] { Array(function.finalize()) }
            return bytes(hasher)
        #else
            return context.finalize()
        #endif
    }

    /// The digest as lowercase hex digits. The hasher cannot be used after.
    public func finalizeHex() -> String { Digest.hex(finalize()) }
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

        func finalize() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var written: UInt32 = 0
            EVP_DigestFinal_ex(context, &digest, &written)
            return Array(digest.prefix(Int(written)))
        }
    }
#endif
