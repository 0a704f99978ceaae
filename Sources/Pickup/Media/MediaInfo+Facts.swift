/// One fact in the flat, named form shared by `pickup probe --json` and the
/// corpus manifests (`kind`, `width`, `duration`, `latitude`...).
public enum Fact: Sendable, Hashable {
    /// A text value.
    case string(String)
    /// A whole number.
    case int(Int64)
    /// A number with a fraction.
    case double(Double)
    /// A yes or no.
    case bool(Bool)
}

extension MediaInfo {
    /// Every fact's name, in the order `facts` lists them: the keys a JSON object of a file
    /// always has (null for what a file does not say).
    public static let factNames = [
        "kind", "container", "bytes", "videoCodec", "audioCodec", "imageCodec", "width", "height", "rotation",
        "mirrored", "orientation", "displayWidth", "displayHeight", "duration", "frameRate", "bitDepth", "hdr",
        "audioChannels", "audioSampleRate", "creationDate", "creationDateZone", "latitude", "longitude", "altitude",
        "make", "model", "software", "contentIdentifier", "livePhoto", "animated", "frameCount", "alpha",
    ]

    /// The facts as ordered name/value pairs, with the field names and units of
    /// the corpus manifests. Absent facts are left out.
    public var facts: [(name: String, value: Fact)] {
        var list: [(name: String, value: Fact)] = []
        func add(_ name: String, _ value: String?) { if let value { list.append((name, .string(value))) } }
        func add(_ name: String, _ value: Int?) { if let value { list.append((name, .int(Int64(value)))) } }
        func add(_ name: String, _ value: Double?) { if let value { list.append((name, .double(value))) } }

        add("kind", kind.rawValue)
        add("container", container.rawValue)
        list.append(("bytes", .int(fileSize)))
        add("videoCodec", videoCodec)
        add("audioCodec", audioCodec)
        add("imageCodec", imageCodec)
        add("width", width)
        add("height", height)
        if width != nil || kind != .audio {
            add("rotation", orientation.rotation.degrees)
            list.append(("mirrored", .bool(orientation.mirrored)))
        }
        add("orientation", exifOrientation)
        add("displayWidth", displayWidth)
        add("displayHeight", displayHeight)
        add("duration", duration.map { ($0 * 1000).rounded() / 1000 })
        add("frameRate", frameRate.map { ($0 * 1000).rounded() / 1000 })
        add("bitDepth", bitDepth)
        add("hdr", hdr?.rawValue)
        add("audioChannels", audioChannels)
        add("audioSampleRate", audioSampleRate)
        if let creationDate {
            add("creationDate", creationDate.iso8601)
            switch creationDate.zone {
            case .offset: add("creationDateZone", "offset")
            case .utc: add("creationDateZone", "utc")
            case .unspecified: add("creationDateZone", "unspecified")
            }
        }
        if let location {
            // Degrees to 7 decimals (about a centimetre) and metres to the millimetre: finer
            // digits are only the noise of turning degrees, minutes and seconds into a decimal
            // (2.2944999999999998 for 2° 17' 40.2").
            add("latitude", (location.latitude * 1e7).rounded() / 1e7)
            add("longitude", (location.longitude * 1e7).rounded() / 1e7)
            add("altitude", location.altitude.map { ($0 * 1000).rounded() / 1000 })
        }
        add("make", make)
        add("model", model)
        add("software", software)
        add("contentIdentifier", contentIdentifier)
        add("livePhoto", livePhotoRole?.rawValue)
        if kind == .image {
            list.append(("animated", .bool(animated)))
            add("frameCount", frameCount)
            list.append(("alpha", .bool(alpha)))
        }
        return list
    }
}
