#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// The one `pread` loop the probe, the import's copy and the upload's source file share.
package enum PositionalRead {
    /// Fills `buffer` from `offset` of the open file `descriptor`, straight into the caller's
    /// memory, retrying when a signal interrupts: the bytes read (fewer than asked only at the
    /// end of the file), or the `errno` of the read that failed.
    package static func fill(
        _ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int64
    ) -> Result<Int, PositionalReadError> {
        guard let base = buffer.baseAddress else { return .success(0) }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, base + done, buffer.count - done, off_t(offset + Int64(done)))
            if n > 0 {
                done += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                return .failure(PositionalReadError(code: errno, offset: offset + Int64(done)))
            }
        }
        return .success(done)
    }
}

/// A read that failed: its `errno` and where in the file.
package struct PositionalReadError: Error {
    package var code: Int32
    package var offset: Int64

    /// What the system says the code means ("Input/output error").
    package var text: String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
