/// The file format that wraps the media, named as exiftool and ffprobe users know it.
public enum Container: String, Sendable, Hashable, Codable, CaseIterable {
    case mp4, mov, m4a, m4v
    case threeGP = "3gp"
    case threeG2 = "3g2"
    case heic, heif, avif
    case jpeg, png, gif, webp
    case webm, mkv
}
