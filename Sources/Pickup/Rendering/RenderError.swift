/// Why a thumbnail or an export failed: what happened, and what to do.
public struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is, for a program to act on.
    public enum Code: String, Sendable, Hashable {
        /// The file cannot be opened or read.
        case unreadable
        /// The file is damaged or cut short.
        case damaged
        /// No video (or picture) stream to render.
        case noPicture
        /// A codec or format this build cannot decode or encode.
        case unsupported
        /// The picture is larger than the pixel limit.
        case tooLarge
        /// The options cannot be met (a size that cannot be reached, a bad time range).
        case impossible
        /// Writing the output failed.
        case writeFailed
        /// Stopped because it was cancelled; nothing was written.
        case cancelled
    }

    /// What kind of failure it is.
    public var code: Code
    /// What happened, in a sentence.
    public var message: String
    /// The file, when known.
    public var path: String?
    /// What to do about it, in a sentence: the one given for this very case, else the kind's own.
    public var hint: String
    /// The probe's error, when the probe found the problem before any rendering (a file cut
    /// short, one that is not media): what a program sees in every command's error.
    public var cause: ProbeError?

    /// An error with its kind, its message, its file, and a hint when the kind's own does not fit
    /// the case (a photo given to an export is not "audio-only").
    public init(_ code: Code, _ message: String, path: String? = nil, hint: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.hint = hint ?? RenderError.hint(for: code)
    }

    /// Why a file could not be rendered, from why it could not be probed: one
    /// mapping for every renderer (FFmpeg's, AVFoundation's), so that the same
    /// file fails the same way whichever makes its thumbnail or export.
    /// It keeps the probe's error (`cause`: its code, offset and element) and its hint, which
    /// knows the case better than the kind's own ("the file is cut short", "not a photo or video").
    public init(probeError: ProbeError, path: String) {
        let code: Code =
            switch probeError.code {
            case .unreadable: .unreadable
            case .unrecognized: .unsupported
            default: .damaged
            }
        self.init(code, probeError.message, path: path, hint: probeError.hint)
        cause = probeError
    }

    /// A camera's raw photo with no JPEG preview in it: nothing in Pickup decodes a sensor's data.
    public static func rawWithoutPreview(_ container: Container, path: String) -> RenderError {
        RenderError(
            .unsupported,
            "a camera's raw photo (\(container.rawValue.uppercased())) with no JPEG preview in it; Pickup does not "
                + "decode a sensor's data", path: path, hint: rawHint)
    }

    /// What to do when a raw photo's preview cannot give a thumbnail.
    public static let rawHint =
        "Make the thumbnail from the JPEG the camera saved beside it (RAW+JPEG), or from an export."

    /// What to do about a failure of this kind, when nothing more fitting is known.
    public static func hint(for code: Code) -> String {
        switch code {
        case .unreadable: return "Check that the file exists and can be read."
        case .damaged: return "The file may be incomplete; copy it again from its source."
        case .noPicture: return "Audio-only files have no frames; pick a video or a photo."
        case .unsupported: return "Convert it with ffmpeg first, or pick another file."
        case .tooLarge: return "Pickup refuses pictures past its pixel limit to keep memory bounded."
        case .impossible: return "Change the options: a time inside the video, a size limit it can meet."
        case .writeFailed: return "Check the output folder: space, permissions."
        case .cancelled: return "Nothing was written."
        }
    }

    public var description: String { (path.map { $0 + ": " } ?? "") + message + ". " + hint }
}
