import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SHA-256 of a file's bytes, read a megabyte at a time (flat memory, any size).
public enum FileHash {
    /// Why a file could not be hashed.
    public enum Failure: Error, Sendable, Equatable {
        /// `open` or `read` failed with this `errno`.
        case system(Int32)
        /// Not a regular file (a FIFO, a device, a folder): never read.
        case notRegular
    }

    /// The file's size and SHA-256 (64 lowercase hex digits). FIFOs and devices are refused
    /// without blocking: the file is opened non-blocking and checked before it is read.
    public static func sha256(
        ofFileAt path: String, progress: (Int64) -> Void = { _ in }
    ) -> Result<(size: Int64, sha256: String), Failure> {
        let descriptor = SystemPath.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return .failure(.system(errno)) }
        defer { close(descriptor) }
        guard let status = FileStatus(descriptor: descriptor) else { return .failure(.system(errno)) }
        guard status.kind == .regular else { return .failure(.notRegular) }
        let hasher = DigestHasher()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            guard let base = buffer.baseAddress else { return .failure(.system(ENOMEM)) }
            let count = read(descriptor, base, chunk)
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.system(errno))
            }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            total += Int64(count)
            progress(total)
        }
        return .success((total, hasher.finalizeHex()))
    }
}
