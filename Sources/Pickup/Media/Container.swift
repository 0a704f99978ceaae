/// The file format that wraps the media, named as exiftool and ffprobe users know it.
public enum Container: String, Sendable, Hashable, Codable, CaseIterable {
    /// ISO base media files from cameras and phones: MPEG-4, QuickTime, M4A audio and M4V video.
    case mp4, mov, m4a, m4v
    /// 3GPP, the MPEG-4 variant of older phones.
    case threeGP = "3gp"
    /// 3GPP2, the CDMA phones' variant.
    case threeG2 = "3g2"
    /// HEIF stills: HEIC (HEVC-coded), other HEIF, and AVIF (AV1-coded).
    case heic, heif, avif
    /// Still and animated images: JPEG, PNG, GIF and WebP.
    case jpeg, png, gif, webp
    /// TIFF images, and DNG: Adobe's raw format in a TIFF container (iPhone ProRAW and RAW photos).
    case tiff, dng
    /// Matroska files: WebM (VP8, VP9, AV1 with Opus or Vorbis) and MKV.
    case webm, mkv
    /// Cameras' raw photos: Canon CR2 and CR3, Nikon NEF, Sony ARW, Fujifilm RAF, Panasonic
    /// RW2, Olympus ORF and Pentax PEF. Probed for their facts (camera, time, place, size),
    /// imported and sent as they are; never decoded.
    case cr2, cr3, nef, arw, raf, rw2, orf, pef
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
        case .tiff: return "image/tiff"
        case .dng: return "image/x-adobe-dng"
        case .webm: return "video/webm"
        case .mkv: return "video/x-matroska"
        case .cr2: return "image/x-canon-cr2"
        case .cr3: return "image/x-canon-cr3"
        case .nef: return "image/x-nikon-nef"
        case .arw: return "image/x-sony-arw"
        case .raf: return "image/x-fuji-raf"
        case .rw2: return "image/x-panasonic-rw2"
        case .orf: return "image/x-olympus-orf"
        case .pef: return "image/x-pentax-pef"
        }
    }

    /// Whether the file is a camera's raw photo (DNG aside: a TIFF that FFmpeg may decode).
    public var isCameraRaw: Bool {
        switch self {
        case .cr2, .cr3, .nef, .arw, .raf, .rw2, .orf, .pef: return true
        default: return false
        }
    }
}
