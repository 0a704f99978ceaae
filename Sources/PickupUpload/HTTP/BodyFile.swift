import Foundation

extension HTTPBody {
    /// Writes the body to a new file at `path`, in pieces of 1 MB: what a background session
    /// sends when the body is not one whole file (the rest of a tus upload, a form), and what
    /// URLSessionTransport sends a large body from. The file is readable by its owner only; a
    /// body that cannot be written leaves no file behind.
    package func write(toFile path: String) throws(UploadError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw UploadError(
                .sourceUnreadable,
                "the upload's body could not be prepared at \(path) (\(String(cString: strerror(errno))))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try append(to: handle)
            try handle.synchronize()
        } catch {
            try? handle.close()
            unlink(path)
            throw UploadError(
                .sourceUnreadable, "the upload's body could not be written at \(path) (is the disk full?): \(error)")
        }
        try? handle.close()
    }

    private func append(to handle: FileHandle) throws {
        switch self {
        case .none: return
        case .data(let data): try handle.write(contentsOf: data)
        case .file(let source, let offset, let length):
            var done: Int64 = 0
            while done < length {
                let count = Int(min(1 << 20, length - done))
                try handle.write(contentsOf: try source.read(at: offset + done, count: count))
                done += Int64(count)
            }
        case .parts(let parts):
            for part in parts { try part.append(to: handle) }
        }
    }
}
