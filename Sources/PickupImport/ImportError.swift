import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why one item could not be imported: what happened, to which file, and what to do.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is, for a program to act on.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The source could not be read (missing, vanished, a folder, an I/O error).
        case sourceUnreadable
        /// The source changed while it was copied (still being written, replaced or cut short).
        case sourceChanged
        /// The system refused to let Pickup read the source.
        case permissionDenied
        /// The source is not a photo or video Pickup can read.
        case notMedia
        /// The source is a photo or video, damaged or cut short.
        case damaged
        /// The destination has no room left.
        case destinationFull
        /// The destination could not be written (read-only, permissions, I/O error).
        case destinationUnwritable
        /// The source lies inside the destination already.
        case sourceInsideDestination
        /// The same file was listed more than once; it is imported once.
        case duplicateSource
        /// The catalog could not be read or written.
        case catalog
        /// The import was cancelled before this item was done.
        case cancelled
    }

    /// What kind of problem it is.
    public var code: Code
    /// What happened, in a sentence.
    public var message: String
    /// The file involved.
    public var path: String?

    /// What to do, when the cause knows better than the code (a probe's hint).
    private var specificHint: String?

    /// An error with its kind and message, its file, and a hint when the kind's own does not fit.
    public init(_ code: Code, _ message: String, path: String? = nil, hint: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.specificHint = hint
    }

    /// The import error for a file the probe could not read.
    public init(probeError: ProbeError, path: String) {
        let code: Code
        switch probeError.code {
        case .unrecognized, .empty: code = .notMedia
        case .unreadable:
            let denied = probeError.systemError == EACCES || probeError.systemError == EPERM
            code = denied ? .permissionDenied : .sourceUnreadable
        case .truncated, .malformed, .limitExceeded: code = .damaged
        }
        self.init(code, probeError.message, path: path, hint: probeError.hint)
    }

    /// What to do about it, in a sentence.
    public var hint: String {
        if let specificHint { return specificHint }
        switch code {
        case .sourceUnreadable: return "Check that the file still exists and is readable, then import it again."
        case .sourceChanged:
            return "Wait until whatever writes the file has finished, then import it again."
        case .permissionDenied: return "Give Pickup permission to read the file, then import it again."
        case .notMedia: return "Only photos and videos are imported; leave this file out."
        case .damaged: return "The file is damaged or cut short: copy it again from its source."
        case .destinationFull: return "Free some space in the destination (or choose another), then import again."
        case .destinationUnwritable: return "Check that the destination folder exists and is writable."
        case .sourceInsideDestination: return "The file is already in the destination; nothing to do."
        case .duplicateSource: return "Nothing to do: the file is imported once."
        case .catalog: return "The catalog in the destination's .pickup folder may be damaged; check the disk."
        case .cancelled: return "Import it again to finish."
        }
    }

    public var description: String {
        (path.map { $0 + ": " } ?? "") + message + ". " + hint
    }

    static func reading(_ path: String, errno code: Int32) -> ImportError {
        let text = SystemError.text(code)
        switch code {
        case EACCES, EPERM: return ImportError(.permissionDenied, "cannot read the file: " + text, path: path)
        default: return ImportError(.sourceUnreadable, "cannot read the file: " + text, path: path)
        }
    }

    static func writing(_ path: String, errno code: Int32) -> ImportError {
        let text = SystemError.text(code)
        switch code {
        case ENOSPC, EDQUOT: return ImportError(.destinationFull, "the destination is full: " + text, path: path)
        default: return ImportError(.destinationUnwritable, "cannot write to the destination: " + text, path: path)
        }
    }
}
