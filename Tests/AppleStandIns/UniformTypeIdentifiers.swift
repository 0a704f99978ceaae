// Stand-in for Apple's UniformTypeIdentifiers (test-only; see scripts/check-apple-ui.sh).
public struct UTType: Hashable, Sendable {
    public let identifier: String
    public init?(_ identifier: String) { self.identifier = identifier }
    init(known: String) { identifier = known }
    public func conforms(to type: UTType) -> Bool { fatalError() }
    public static let image = UTType(known: "public.image")
    public static let movie = UTType(known: "public.movie")
    public static let livePhoto = UTType(known: "com.apple.live-photo")
    public static let jpeg = UTType(known: "public.jpeg")
    public static let heic = UTType(known: "public.heic")
    public static let quickTimeMovie = UTType(known: "com.apple.quicktime-movie")
    public static let mpeg4Movie = UTType(known: "public.mpeg-4")
}
