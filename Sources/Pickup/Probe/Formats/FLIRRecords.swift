/// What a FLIR thermal camera records of a picture in its own format (FFF), which its JPEGs carry
/// in APP1 segments that begin `FLIR\0`: the date the picture was taken, with its zone, the
/// camera's model, and where it was (FLIR's GPS record). Many FLIR JPEGs have no EXIF date or
/// GPS at all; exiftool reads these records (its FLIR module), and so does the probe.
///
/// The layout, as exiftool's FLIR.pm reads it: each APP1 segment gives its index (byte 6) and the
/// last index (byte 7), and the bytes from 8 on, joined in index order, are one FFF file. Its
/// header holds a version (100...199; read the other way round it is not, which gives the byte
/// order), the record directory's offset and its count of 32-byte entries: a record's type,
/// offset and length. CameraInfo (type 0x20) holds the model (32 bytes at 0xD4) and the date
/// (seconds since 1970 in UTC at 0x384, a zone in minutes west of UTC at 0x38C); GPSInfo (0x2B,
/// always little-endian) a valid flag, N/S and E/W, and latitude and longitude as doubles.
struct FLIRRecords {
    /// The segments' data by index, as they are found.
    private var chunks: [Int: [UInt8]] = [:]
    /// The last index the segments name (nil: none found, or they disagree).
    private var lastIndex: Int?
    /// Whether the segments disagree about their count: the records are then not read.
    private var inconsistent = false

    /// Whether an APP1 payload is one of FLIR's.
    static func isSegment(_ payload: [UInt8]) -> Bool {
        payload.count >= 8 && payload.starts(with: [0x46, 0x4C, 0x49, 0x52, 0])  // "FLIR\0"
    }

    /// Keeps one FLIR segment's payload (`isSegment`).
    mutating func add(_ payload: [UInt8]) {
        let index = Int(payload[6])
        let last = Int(payload[7])
        if let lastIndex, lastIndex != last { inconsistent = true }
        lastIndex = last
        if chunks[index] == nil { chunks[index] = Array(payload.dropFirst(8)) }
    }

    /// The pieces the records give, filled where `info` has none (EXIF's come first).
    func fill(_ info: inout MediaInfo) {
        guard !inconsistent, let lastIndex, hasEverySegment(upTo: lastIndex) else { return }
        var file: [UInt8] = []
        for index in 0...lastIndex { file += chunks[index] ?? [] }
        guard let records = FLIRRecords.directory(file) else { return }
        for record in records {
            switch record.type {
            case 0x20:
                let camera = FFFBytes(file[record.range], littleEndian: record.littleEndian)
                // Its first field is 2; read the other way round, the record is in the other order.
                let ordered = camera.u16(at: 0).map { $0 >= 0x100 } == true ? camera.flipped : camera
                info.creationDate = info.creationDate ?? FLIRRecords.date(ordered)
                if info.model == nil, let model = ordered.text(at: 0xD4, length: 32), !model.isEmpty {
                    info.model = model
                }
            case 0x2B:
                info.location = info.location ?? FLIRRecords.place(FFFBytes(file[record.range], littleEndian: true))
            default: continue
            }
        }
    }

    /// Whether every segment from 0 to `last` was found.
    private func hasEverySegment(upTo last: Int) -> Bool { (0...last).allSatisfy { chunks[$0] != nil } }

    /// A record's type, where its bytes lie in the file, and the file's byte order.
    struct Record {
        var type: UInt16
        var range: Range<Int>
        var littleEndian: Bool
    }

    /// The FFF file's records, or nil when it is not one.
    static func directory(_ file: [UInt8]) -> [Record]? {
        guard file.starts(with: Array("FFF\0".utf8)) || file.starts(with: Array("AFF\0".utf8)) else { return nil }
        var bytes = FFFBytes(file, littleEndian: false)
        if !(100...199).contains(bytes.u32(at: 0x14) ?? 0) { bytes = bytes.flipped }
        guard (100...199).contains(bytes.u32(at: 0x14) ?? 0), let offset = bytes.u32(at: 0x18),
            let count = bytes.u32(at: 0x1C), count <= 1_000
        else { return nil }
        var records: [Record] = []
        for entry in 0..<Int(count) {
            let at = Int(offset) + entry * 0x20
            guard let type = bytes.u16(at: at), let start = bytes.u32(at: at + 0x0C),
                let length = bytes.u32(at: at + 0x10)
            else { break }
            guard type != 0, Int(start) + Int(length) <= file.count else { continue }
            records.append(
                Record(type: type, range: Int(start)..<Int(start) + Int(length), littleEndian: bytes.littleEndian))
        }
        return records
    }

    /// CameraInfo's DateTimeOriginal: UTC seconds, and the zone in minutes west of UTC.
    static func date(_ camera: FFFBytes) -> MediaDate? {
        guard let seconds = camera.u32(at: 0x384), seconds > 0, let west = camera.u16(at: 0x38C) else { return nil }
        let offset = -Int(Int16(bitPattern: west)) * 60
        guard abs(offset) <= 14 * 3_600 else { return nil }
        var date = MediaDate(utcSecondsSince1970: Int(seconds) + offset)
        date.zone = .offset(seconds: offset)
        return date.isValid ? date : nil
    }

    /// GPSInfo's place, when the record says it is valid.
    static func place(_ gps: FFFBytes) -> GeoLocation? {
        guard let valid = gps.u32(at: 0), valid != 0, var latitude = gps.f64(at: 0x10),
            var longitude = gps.f64(at: 0x18)
        else { return nil }
        // Signed degrees; a reference that says south or west and a positive value: made negative.
        if gps.text(at: 0x08, length: 2) == "S", latitude > 0 { latitude = -latitude }
        if gps.text(at: 0x0A, length: 2) == "W", longitude > 0 { longitude = -longitude }
        let altitude = gps.f32(at: 0x20).map(Double.init).flatMap { $0 == -1 || !$0.isFinite ? nil : $0 }
        let place = GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
        guard place.isValid, latitude != 0 || longitude != 0 else { return nil }
        return place
    }
}

/// Bytes of an FFF file or record read in one byte order; nil past their end.
struct FFFBytes {
    let bytes: ArraySlice<UInt8>
    let littleEndian: Bool

    init(_ bytes: some Collection<UInt8>, littleEndian: Bool) {
        self.bytes = ArraySlice(bytes)
        self.littleEndian = littleEndian
    }

    /// The same bytes read the other way round.
    var flipped: FFFBytes { FFFBytes(bytes, littleEndian: !littleEndian) }

    func unsigned(at index: Int, size: Int) -> UInt64? {
        guard index >= 0, index + size <= bytes.count else { return nil }
        let start = bytes.startIndex + index
        var value: UInt64 = 0
        for i in 0..<size {
            value = value << 8 | UInt64(bytes[start + (littleEndian ? size - 1 - i : i)])
        }
        return value
    }

    func u16(at index: Int) -> UInt16? { unsigned(at: index, size: 2).map { UInt16($0) } }
    func u32(at index: Int) -> UInt32? { unsigned(at: index, size: 4).map { UInt32($0) } }
    func f64(at index: Int) -> Double? { unsigned(at: index, size: 8).map { Double(bitPattern: $0) } }
    func f32(at index: Int) -> Float? { u32(at: index).map { Float(bitPattern: $0) } }

    /// A text field of `length` bytes, up to its first NUL, spaces trimmed.
    func text(at index: Int, length: Int) -> String? {
        guard index >= 0, index + length <= bytes.count else { return nil }
        let start = bytes.startIndex + index
        let field = bytes[start..<start + length].prefix { $0 != 0 }
        return String(decoding: field, as: UTF8.self).trimmingNulsAndSpaces
    }
}
