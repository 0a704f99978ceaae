/// Bounds on the work a probe does for one file, whatever the file claims.
///
/// Every count, size and offset read from a file is checked against these and
/// against the bytes the file actually holds before it is used. Nesting needs
/// no limit of its own: the parsers descend only into the containers they know
/// (`moov/trak/mdia/minf/stbl`, `meta/iprp/ipco`, EXIF's three IFDs...), to a
/// depth fixed in the code, whatever the file nests.
public struct ProbeLimits: Sendable, Hashable {
    /// How many boxes, chunks or elements one file may hold in all.
    public var maxElements: Int = 200_000
    /// The largest single structure read into memory (a `meta` item, an EXIF block, a `trun`).
    public var maxStructureBytes: Int = 16 << 20
    /// The most entries one EXIF IFD may list.
    public var maxIFDEntries: Int = 2_000
    /// The most frames counted in an animated image.
    public var maxFrames: Int = 1_000_000
    /// The most bytes read from one file in all (GIF frame counting reads the whole file).
    public var maxBytesRead: Int64 = 1 << 30

    /// The default bounds: generous for real files, small enough for hostile ones.
    public init() {}

    /// The default bounds.
    public static let `default` = ProbeLimits()
}
