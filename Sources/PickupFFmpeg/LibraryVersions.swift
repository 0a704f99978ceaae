import CFFmpeg
import CHeif

/// The versions of the C libraries this build renders with, as they report themselves at run
/// time (what `pickup --version` prints).
public enum LibraryVersions {
    /// FFmpeg's release and its libraries' versions, such as
    /// "FFmpeg 5.1.6 (libavformat 59.27.100, libavcodec 59.37.100, libswscale 6.7.100)".
    public static var ffmpeg: String {
        let release = String(cString: av_version_info())
        return "FFmpeg \(release) (libavformat \(dotted(avformat_version())), libavcodec \(dotted(avcodec_version())), "
            + "libswscale \(dotted(swscale_version())))"
    }

    /// libheif's version, such as "libheif 1.15.1".
    public static var heif: String { "libheif " + String(cString: heif_get_version()) }

    /// `major.minor.micro` of FFmpeg's packed version numbers.
    private static func dotted(_ version: UInt32) -> String {
        "\(version >> 16).\((version >> 8) & 0xff).\(version & 0xff)"
    }
}
