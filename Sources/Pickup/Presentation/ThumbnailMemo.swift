/// The thumbnails a grid shows, one a file, decided here (and tested on Linux): each made once
/// (never twice at once for a file), `concurrency` at a time in the order their tiles appeared,
/// the `capacity` asked for last kept and the rest let go, and a file that could not be made
/// into one remembered, so that a tile shown again does not try it on every appearance.
/// PickupUI's `PickedThumbnails` makes the images; the memo says when.
public struct ThumbnailMemo<Image> {
    /// What a tile that appears does about its file's image.
    public enum Start: Sendable, Hashable {
        /// Make it now.
        case now
        /// Wait for a turn (`end` of another file gives it), then make it.
        case later
        /// Nothing: it is kept, being made, waiting, or could not be made before.
        case no
    }

    /// How many images are kept at most.
    public let capacity: Int
    /// How many are made at once at most.
    public let concurrency: Int
    private var images: [String: Image] = [:]
    /// The files whose image is kept, the one asked for longest ago first.
    private var recent: [String] = []
    private var making: Set<String> = []
    /// The files waiting for a turn, in the order their tiles appeared.
    private var waiting: [String] = []
    private var failed: Set<String> = []

    /// A memo keeping `capacity` images at most, making `concurrency` at once (each at least one).
    public init(capacity: Int = 300, concurrency: Int = 2) {
        self.capacity = max(1, capacity)
        self.concurrency = max(1, concurrency)
    }

    /// The image made of `file`, if it is kept. Reading changes nothing (a view's body may ask).
    public func image(_ file: String) -> Image? { images[file] }

    /// A tile with `file` appears: whether to make its image now, after a turn, or not at all.
    /// A kept one becomes the most recent.
    public mutating func begin(_ file: String) -> Start {
        if images[file] != nil {
            touch(file)
            return .no
        }
        guard !making.contains(file), !waiting.contains(file), !failed.contains(file) else { return .no }
        guard making.count < concurrency else {
            waiting.append(file)
            return .later
        }
        making.insert(file)
        return .now
    }

    /// The image of `file` is made (nil: it could not be); the least recent goes beyond
    /// `capacity`. Returns the waiting file whose turn it is now, if any.
    public mutating func end(_ file: String, _ image: Image?) -> String? {
        making.remove(file)
        if let image {
            images[file] = image
            touch(file)
            while recent.count > capacity { images[recent.removeFirst()] = nil }
        } else {
            failed.insert(file)
        }
        return nextTurn()
    }

    /// Lets go of every image and failure (memory is short: `didReceiveMemoryWarning`); the
    /// tiles on screen ask again when they next appear. What is being made or waits goes on.
    public mutating func removeAll() {
        images = [:]
        recent = []
        failed = []
    }

    /// How many images are kept.
    public var count: Int { images.count }

    private mutating func nextTurn() -> String? {
        guard making.count < concurrency, !waiting.isEmpty else { return nil }
        let next = waiting.removeFirst()
        making.insert(next)
        return next
    }

    private mutating func touch(_ file: String) {
        recent.removeAll { $0 == file }
        recent.append(file)
    }
}

extension ThumbnailMemo: Sendable where Image: Sendable {}
