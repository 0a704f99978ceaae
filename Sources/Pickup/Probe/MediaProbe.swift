/// Tells what a photo or video file is, from its bytes.
///
/// Reads only what it needs (box headers, `moov`, `meta`, EXIF), never the
/// whole file, and bounds every count and size it reads. The kind of file comes
/// from its content; the extension is never consulted.
///
/// ```swift
/// let info = try MediaProbe().probe(path: "IMG_0001.MOV")
/// print(info.kind, info.displayWidth ?? 0, info.duration ?? 0)
/// ```
public struct MediaProbe: Sendable {
    /// The bounds on the work done for one file.
    public var limits: ProbeLimits

    /// A probe with these bounds.
    public init(limits: ProbeLimits = .default) {
        self.limits = limits
    }

    /// Probes the file at `path`. Errors carry the path.
    public func probe(path: String) throws(ProbeError) -> MediaInfo {
        do {
            return try probe(source: try FileByteSource(path: path))
        } catch {
            throw error.at(path)
        }
    }

    /// Probes bytes already in memory.
    public func probe(bytes: [UInt8]) throws(ProbeError) -> MediaInfo {
        try probe(source: MemoryByteSource(bytes))
    }

    /// Probes any byte source.
    public func probe(source: ByteSource) throws(ProbeError) -> MediaInfo {
        guard source.size > 0 else { throw ProbeError(.empty, "the file is empty (0 bytes)") }
        let head = try source.readUpTo(at: 0, count: 16)
        guard let format = SniffedFormat.detect(head) else {
            throw ProbeError(.unrecognized, SniffedFormat.describe(try source.readUpTo(at: 0, count: 64)), offset: 0)
        }
        switch format {
        case .isobmff: return try ISOBMFFProbe.probe(source, limits: limits)
        case .jpeg: return try JPEGProbe.probe(source, limits: limits)
        case .png: return try PNGProbe.probe(source, limits: limits)
        case .gif: return try GIFProbe.probe(source, limits: limits)
        case .webp: return try WebPProbe.probe(source, limits: limits)
        case .matroska: return try MatroskaProbe.probe(source, limits: limits)
        case .tiff: return try TIFFProbe.probe(source, limits: limits)
        case .raf: return try RAFProbe.probe(source, limits: limits)
        }
    }
}
