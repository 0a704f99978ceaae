/// Why a file could not be probed: what happened, where, and what to do.
///
/// Carries the file, the byte offset and the element (box, tag, chunk) where
/// the problem was found, so that a person can read it and a program can act
/// on ``code``.
public struct ProbeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is, for a program to act on.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The file has no bytes.
        case empty
        /// The bytes are not a format Pickup knows.
        case unrecognized
        /// The file ends before a structure it announces.
        case truncated
        /// A structure contradicts itself or its format.
        case malformed
        /// A count, size or depth exceeds what Pickup accepts from a file.
        case limitExceeded
        /// The file could not be opened or read.
        case unreadable
    }

    /// What kind of problem it is.
    public var code: Code
    /// What happened, in a sentence.
    public var message: String
    /// The file, when known.
    public var path: String?
    /// Byte offset in the file where the problem was found.
    public var offset: Int64?
    /// The box, tag, chunk or element involved, e.g. `box 'moov'`, `tag 0x8769`.
    public var element: String?
    /// The system's error number, when a system call failed (``Code/unreadable``).
    public var systemError: Int32?

    /// What to do, when the case knows better than its kind (a FIFO is there, but never read).
    private var specificHint: String?

    /// An error with its kind, its message and where it was found; `hint` when the kind's own
    /// does not fit the case.
    public init(
        _ code: Code, _ message: String, offset: Int64? = nil, element: String? = nil, path: String? = nil,
        hint: String? = nil
    ) {
        self.specificHint = hint
        self.code = code
        self.message = message
        self.offset = offset
        self.element = element
        self.path = path
    }

    /// What the person can do about it.
    public var hint: String {
        if let specificHint { return specificHint }
        switch code {
        case .empty:
            return "An interrupted copy or download leaves such a file: copy it again from its source."
        case .unrecognized:
            return
                "Pickup reads MP4, MOV, M4A, 3GP, HEIC, AVIF, JPEG, PNG, GIF, WebP, TIFF, DNG, WebM/Matroska and "
                + "raw photos (CR2, CR3, NEF, ARW, RAF, RW2, ORF, PEF); check that this is a photo or video."
        case .truncated: return "The file is cut short: copy or download it again in full."
        case .malformed: return "The file is damaged or was written by a faulty program; try re-exporting it."
        case .limitExceeded: return "The file asks for more than Pickup accepts from a file; it is damaged or hostile."
        case .unreadable: return "Check that the file exists and that you may read it."
        }
    }

    public var description: String {
        var text = ""
        if let path { text += path + ": " }
        text += message
        var place: [String] = []
        if let element { place.append("in " + element) }
        if let offset { place.append("at byte \(offset)") }
        if !place.isEmpty { text += " (" + place.joined(separator: ", ") + ")" }
        return text + ". " + hint
    }

    func at(_ path: String) -> ProbeError {
        var copy = self
        copy.path = path
        return copy
    }
}
