import Foundation
import Pickup
import PickupStore

/// How an import runs.
public struct ImportOptions: Sendable {
    /// How many items copy at the same time. Small files (under 4 MB) may copy up to four
    /// times as many at once (at most 32, unless this is more; up to 256 where they share
    /// their flushes, on Linux), within the copy-buffer memory of this many large ones.
    public var concurrency: Int
    /// Make a thumbnail of each item (kept in `.pickup/thumbnails/`, recorded in the catalog).
    public var thumbnails: ImportThumbnails?
    /// Where in the library new items go.
    public var layout: ImportLayout
    /// Read every source again and compare it by content (SHA-256), even one the catalog knows
    /// by its path, size and modification time: for bytes that changed with neither (a card's
    /// bit rot, an edit that kept the time).
    public var rehash: Bool

    /// Options: `concurrency` items copied at once, thumbnails when asked for, the layout;
    /// sources the catalog knows by path, size and time are not read again unless `rehash`.
    public init(
        concurrency: Int = 2, thumbnails: ImportThumbnails? = nil, layout: ImportLayout = .flat, rehash: Bool = false
    ) {
        self.concurrency = max(1, concurrency)
        self.thumbnails = thumbnails
        self.layout = layout
        self.rehash = rehash
    }
}

/// Where in the library new items' files go.
public enum ImportLayout: String, Sendable, CaseIterable {
    /// All in the library folder itself.
    case flat
    /// In `YYYY/MM/` by the date the media was taken (its own wall-clock date), `undated/` when it
    /// says none.
    case date

    /// The subfolder for a file of these facts (nil: the library folder itself).
    public func folder(for info: MediaInfo) -> String? {
        switch self {
        case .flat: return nil
        case .date:
            guard let date = info.creationDate, (1...9999).contains(date.year), (1...12).contains(date.month) else {
                return "undated"
            }
            let year = String(date.year)
            return String(repeating: "0", count: 4 - year.count) + year + "/" + (date.month < 10 ? "0" : "")
                + String(date.month)
        }
    }
}

/// The thumbnails an import makes: who renders them, and how.
public struct ImportThumbnails: Sendable {
    /// What makes the thumbnails (FFmpeg's on Linux, AVFoundation's on Apple platforms).
    public var renderer: any ThumbnailRenderer
    /// The thumbnails' size, mode and format.
    public var request: ThumbnailRequest

    /// Thumbnails made by `renderer` as `request` says.
    public init(renderer: any ThumbnailRenderer, request: ThumbnailRequest) {
        self.renderer = renderer
        self.request = request
    }
}
