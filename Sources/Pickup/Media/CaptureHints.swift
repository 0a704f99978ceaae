/// What a file's metadata says about how it was made. Each field is read
/// from the bytes, never from the file's name.
public struct CaptureHints: Sendable, Hashable, Codable {
    /// EXIF `UserComment` (0x9286); iOS writes "Screenshot" into screenshots.
    public var userComment: String?
    /// EXIF `CustomRendered` (0xA401); iOS writes 6 for panoramas.
    public var customRendered: Int?
    /// Apple's burst identifier (maker note tag 0x000B), shared by a burst's shots.
    public var burstIdentifier: String?
    /// The image carries a depth map or portrait matte as an auxiliary image (HEIF `auxC`).
    public var hasDepth = false
    /// The PNG carries Apple's `iDOT` chunk, which iOS and macOS screenshots have.
    public var hasAppleScreenshotChunk = false

    /// No hints: nothing is known about how the file was made.
    public init() {}
}
