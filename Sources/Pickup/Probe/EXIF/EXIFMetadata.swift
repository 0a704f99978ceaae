/// The facts Pickup takes from an EXIF block: camera, orientation, time,
/// place, and Apple's Live Photo content identifier.
struct EXIFMetadata {
    var make: String?
    var model: String?
    var software: String?
    var orientation: Int?
    var dateTimeOriginal: String?
    var offsetTimeOriginal: String?
    var dateTime: String?
    var offsetTime: String?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var contentIdentifier: String?
    var burstIdentifier: String?
    var userComment: String?
    var customRendered: Int?
    /// IFD0's ImageWidth and ImageLength: a CR3's picture size (``fill(_:)`` leaves them out:
    /// in a JPEG's or a HEIC's EXIF they may describe another picture).
    var width: Int?
    var height: Int?

    enum Tag {
        static let imageWidth: UInt16 = 0x0100, imageLength: UInt16 = 0x0101
        static let make: UInt16 = 0x010F, model: UInt16 = 0x0110, orientation: UInt16 = 0x0112
        static let software: UInt16 = 0x0131, dateTime: UInt16 = 0x0132
        static let exifIFD: UInt16 = 0x8769, gpsIFD: UInt16 = 0x8825
        static let dateTimeOriginal: UInt16 = 0x9003, offsetTime: UInt16 = 0x9010, offsetTimeOriginal: UInt16 = 0x9011
        static let makerNote: UInt16 = 0x927C
        static let userComment: UInt16 = 0x9286, customRendered: UInt16 = 0xA401
    }

    /// Reads a block that starts with a TIFF header. `fileBase` is its offset in the file.
    static func parse(_ bytes: [UInt8], limits: ProbeLimits, fileBase: Int64? = nil) throws(ProbeError) -> EXIFMetadata
    {
        let (tiff, ifd0) = try TIFFReader.open(bytes, limits: limits, fileBase: fileBase)
        return try parse(tiff, ifd0: ifd0)
    }

    /// Reads IFD0 at `ifd0` (and its EXIF and GPS IFDs) through `reader`: an EXIF block's, or
    /// a window of a TIFF file.
    static func parse(_ reader: TIFFReader, ifd0: Int) throws(ProbeError) -> EXIFMetadata {
        var tiff = reader
        var exif = EXIFMetadata()
        let (entries, _) = try tiff.readIFD(at: ifd0)
        var exifIFD: Int?
        var gpsIFD: Int?
        for entry in entries {
            switch entry.tag {
            case Tag.imageWidth: exif.width = tiff.integer(entry)
            case Tag.imageLength: exif.height = tiff.integer(entry)
            case Tag.make: exif.make = tiff.string(entry)
            case Tag.model: exif.model = tiff.string(entry)
            case Tag.software: exif.software = tiff.string(entry)
            case Tag.orientation: exif.orientation = tiff.integer(entry)
            case Tag.dateTime: exif.dateTime = tiff.string(entry)
            case Tag.exifIFD: exifIFD = tiff.integer(entry)
            case Tag.gpsIFD: gpsIFD = tiff.integer(entry)
            default: break
            }
        }
        if let exifIFD { try exif.readEXIF(&tiff, at: exifIFD) }
        if let gpsIFD { try exif.readGPS(&tiff, at: gpsIFD) }
        return exif
    }

    /// Canon's CR3 keeps its EXIF as three TIFF blocks (in the `uuid` box of `moov`): CMT1
    /// holds IFD0, CMT2 the EXIF IFD and CMT4 the GPS IFD, each as its block's first IFD.
    static func parseCanonBlocks(
        ifd0 cmt1: [UInt8]?, exif cmt2: [UInt8]?, gps cmt4: [UInt8]?, limits: ProbeLimits
    ) throws(ProbeError) -> EXIFMetadata {
        // Not `cmt1.map`: the typed-throws `Optional.map` is newer than the iOS 17.4 SDK's standard library.
        var exif = EXIFMetadata()
        if let cmt1 { exif = try parse(cmt1, limits: limits) }
        if let cmt2 {
            var (tiff, first) = try TIFFReader.open(cmt2, limits: limits)
            try exif.readEXIF(&tiff, at: first)
        }
        if let cmt4 {
            var (tiff, first) = try TIFFReader.open(cmt4, limits: limits)
            try exif.readGPS(&tiff, at: first)
        }
        return exif
    }

    /// The EXIF IFD's facts: when the photo was taken, and Apple's maker note.
    private mutating func readEXIF(_ tiff: inout TIFFReader, at offset: Int) throws(ProbeError) {
        for entry in try tiff.readIFD(at: offset).entries {
            switch entry.tag {
            case Tag.dateTimeOriginal: dateTimeOriginal = tiff.string(entry)
            case Tag.offsetTimeOriginal: offsetTimeOriginal = tiff.string(entry)
            case Tag.offsetTime: offsetTime = tiff.string(entry)
            case Tag.userComment: userComment = tiff.userComment(entry)
            case Tag.customRendered: customRendered = tiff.integer(entry)
            case Tag.makerNote:
                let note = AppleMakerNote.read(in: tiff, at: entry.valueOffset, count: Int(entry.count))
                contentIdentifier = note.contentIdentifier
                burstIdentifier = note.burstIdentifier
            default: break
            }
        }
    }

    private mutating func readGPS(_ tiff: inout TIFFReader, at offset: Int) throws(ProbeError) {
        var latitudeRef = "N", longitudeRef = "E", altitudeRef = 0
        var lat: Double?, lon: Double?, alt: Double?
        for entry in try tiff.readIFD(at: offset).entries {
            switch entry.tag {
            case 1: latitudeRef = tiff.string(entry) ?? "N"
            case 2: lat = Self.degrees(tiff, entry)
            case 3: longitudeRef = tiff.string(entry) ?? "E"
            case 4: lon = Self.degrees(tiff, entry)
            case 5: altitudeRef = tiff.integer(entry) ?? 0
            case 6: alt = tiff.rational(entry)
            default: break
            }
        }
        guard let lat, let lon, abs(lat) <= 90, abs(lon) <= 180 else { return }
        latitude = latitudeRef.hasPrefix("S") ? -lat : lat
        longitude = longitudeRef.hasPrefix("W") ? -lon : lon
        if let alt, alt.isFinite { altitude = altitudeRef == 1 ? -alt : alt }
    }

    /// Degrees, minutes, seconds as three rationals.
    private static func degrees(_ tiff: TIFFReader, _ entry: TIFFReader.Entry) -> Double? {
        guard let d = tiff.rational(entry, index: 0) else { return nil }
        let m = tiff.rational(entry, index: 1) ?? 0
        let s = tiff.rational(entry, index: 2) ?? 0
        let value = d + m / 60 + s / 3600
        return value.isFinite ? value : nil
    }

    /// DateTimeOriginal (or DateTime) with its offset when the file gives one.
    var creationDate: MediaDate? {
        let pairs = [(dateTimeOriginal, offsetTimeOriginal), (dateTime, offsetTime ?? offsetTimeOriginal)]
        for (text, offset) in pairs {
            guard let text, var date = MediaDate(parsing: text) else { continue }
            if case .unspecified = date.zone, let offset, let seconds = MediaDate.parseOffset(offset) {
                date.zone = .offset(seconds: seconds)
            }
            return date
        }
        return nil
    }

    var location: GeoLocation? {
        guard let latitude, let longitude else { return nil }
        let place = GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
        return place.isValid ? place : nil
    }

    /// Copies what this EXIF knows into `info` (orientation is left to the caller:
    /// HEIF reports it without applying it).
    func fill(_ info: inout MediaInfo) {
        info.make = info.make ?? make
        info.model = info.model ?? model
        info.software = info.software ?? software
        info.creationDate = info.creationDate ?? creationDate
        info.location = info.location ?? location
        info.contentIdentifier = info.contentIdentifier ?? contentIdentifier
        info.capture.userComment = info.capture.userComment ?? userComment
        info.capture.customRendered = info.capture.customRendered ?? customRendered
        info.capture.burstIdentifier = info.capture.burstIdentifier ?? burstIdentifier
        if let orientation, (1...8).contains(orientation) { info.exifOrientation = orientation }
    }
}
