import Pickup

/// One picked item, loaded: kept in the app's library, or (a format Pickup cannot read)
/// kept as an unprobed file beside it, and what the person should know about it.
public struct PickedItem: Sendable, Hashable {
    /// Where the item's bytes are now.
    public enum Stored: Sendable, Hashable {
        /// Imported into the library: facts, stored files and their checksums.
        case imported(ImportedItem)
        /// A file Pickup cannot probe (an unknown format), kept as it came with its content type.
        case unprobed(UnprobedFile)
    }

    /// The picker's identifier for the item (or its place, when the picker gave none).
    public var key: String
    /// Where it is kept.
    public var stored: Stored
    /// What the item could not bring, when something is missing (a Live Photo's movie).
    public var note: PickNote?
    /// Whether this pick put it in the library (false when the library held it already).
    public var isNew: Bool

    /// An item with its key, where it is kept, a note, and whether this pick stored it.
    public init(key: String, stored: Stored, note: PickNote? = nil, isNew: Bool = true) {
        self.key = key
        self.stored = stored
        self.note = note
        self.isNew = isNew
    }

    /// The imported item, when it was imported.
    public var imported: ImportedItem? {
        if case .imported(let item) = stored { return item }
        return nil
    }

    /// The facts the probe read (nil for an unprobed file).
    public var info: MediaInfo? { imported?.info }

    /// The file a tile's thumbnail is made from: an imported photo's or video's primary file in
    /// `library` (a Live Photo's still); nil for audio and for an unprobed file (no picture
    /// Pickup can read).
    public func thumbnailFile(in library: ImportSession) -> String? {
        guard let item = imported, item.kind != .audio, let primary = item.primary else { return nil }
        return library.path(of: primary)
    }

    /// What to upload for this item, in order, with each file's MIME type: an imported item's
    /// stored files in `library` (a Live Photo's still, then its movie; its `.AAE` edits stay),
    /// or the unprobed file itself, sent as bytes (`application/octet-stream`).
    public func filesToSend(from library: ImportSession) -> [(path: String, type: String)] {
        switch stored {
        case .imported(let item):
            return item.files.filter { $0.role != .edits }.map { file in
                let type = file.role == .livePhotoMovie ? Container.mov.mimeType : item.info.container.mimeType
                return (library.path(of: file), type)
            }
        case .unprobed(let file):
            return [(file.path, "application/octet-stream")]
        }
    }
}

/// A picked file that Pickup could not probe, kept with what the picker said of it.
public struct UnprobedFile: Sendable, Hashable {
    /// Where the file is kept (in the library's `Unprobed` folder).
    public var path: String
    /// Its uniform type identifier, as the picker named it.
    public var contentType: String?
    /// Its size in bytes.
    public var size: Int64
    /// Why the probe could not read it.
    public var reason: String

    /// A kept file with its path, content type, size and the probe's reason.
    public init(path: String, contentType: String?, size: Int64, reason: String) {
        self.path = path
        self.contentType = contentType
        self.size = size
        self.reason = reason
    }
}

/// Something a loaded item lacks, said on the item instead of failing it.
public enum PickNote: Sendable, Hashable, CustomStringConvertible {
    /// A Live Photo whose movie could not be had; its still was kept.
    case livePhotoWithoutMotion(reason: String)

    /// The note, as a sentence for the person.
    public var description: String {
        switch self {
        case .livePhotoWithoutMotion(let reason): return "Kept as a still photo: its motion \(reason)."
        }
    }
}
