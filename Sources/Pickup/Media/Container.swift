/// The file format that wraps the media, named as exiftool and ffprobe users know it.
public enum Container: String, Sendable, Hashable, Codable, CaseIterable {
    case mp4, mov, m4a, m4v
    case threeGP = "3gp"
    case threeG2 = "3g2"
    case heic, heif, avif
    case jpeg, png, gif, webp
    case webm, mkv
}

extension Container {
    /// The MIME type of files in this container (video types for movies; `audio/mp4` for M4A).
    public var mimeType: String {
        switch self {
        case .mp4: return "video/mp4"
        case .mov: return "video/quicktime"
        case .m4a: return "audio/mp4"
        case .m4v: return "video/x-m4v"
        case .threeGP: return "video/3gpp"
        case .threeG2: return "video/3gpp2"
        case .heic: return "image/heic"
        case .heif: return "image/heif"
        case .avif: return "image/avif"
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .gif: return "image/gif"
        case .webp: return "image/webp"
        case .webm: return "video/webm"
        case .mkv: return "video/x-matroska"
        }
    }
}
