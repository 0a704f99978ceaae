/// The thumbnails a grid shows, one a file, decided here (and tested on Linux): each made once
/// (never twice at once for a file), the `capacity` asked for last kept and the rest let go, and
/// a file that could not be made into one remembered, so that a tile shown again does not try
/// it on every appearance. PickupUI's `PickedThumbnails` makes the images; the memo says when.
public struct ThumbnailMemo<Image> {
    /// How many images are kept at most.
    public let capacity: Int
    private var images: [String: Image] = [:]
    /// The files whose image is kept, the one asked for longest ago first.
    private var recent: [String] = []
    private var making: Set<String> = []
    private var failed: Set<String> = []

    /// A memo keeping `capacity` images at most (at least one).
    public init(capacity: Int = 300) { self.capacity = max(1, capacity) }

    /// The image made of `file`, if it is kept. Reading changes nothing (a view's body may ask).
    public func image(_ file: String) -> Image? { images[file] }

    /// A tile with `file` appears: true when its image should be made now (not kept, not being
    /// made, not failed before); a kept one becomes the most recent.
    public mutating func begin(_ file: String) -> Bool {
        if images[file] != nil {
            touch(file)
            return false
        }
        guard !making.contains(file), !failed.contains(file) else { return false }
        making.insert(file)
        return true
    }

    /// The image of `file` is made (nil: it could not be); the least recent goes beyond `capacity`.
    public mutating func end(_ file: String, _ image: Image?) {
        making.remove(file)
        guard let image else {
            failed.insert(file)
            return
        }
        images[file] = image
        touch(file)
        while recent.count > capacity {
            images[recent.removeFirst()] = nil
        }
    }

    /// Lets go of every image and failure (memory is short: `didReceiveMemoryWarning`); the
    /// tiles on screen ask again when they next appear.
    public mutating func removeAll() {
        images = [:]
        recent = []
        failed = []
    }

    /// How many images are kept.
    public var count: Int { images.count }

    private mutating func touch(_ file: String) {
        recent.removeAll { $0 == file }
        recent.append(file)
    }
}

extension ThumbnailMemo: Sendable where Image: Sendable {}
