/// Descriptive facts from a movie's metadata: the `mdta` keys Apple writes in
/// `moov/meta` (`com.apple.quicktime.location.ISO6709`, `...creationdate`,
/// `...content.identifier`), and the `udta` user data that Android and older
/// cameras write (`©xyz`, `©day`, `©mak`, `©mod`, `©swr`).
struct MovieMetadata {
    var creationDate: MediaDate?
    var location: GeoLocation?
    var make: String?
    var model: String?
    var software: String?
    var contentIdentifier: String?

    /// Fills the gaps in `self` with what `other` knows.
    mutating func merge(_ other: MovieMetadata) {
        creationDate = creationDate ?? other.creationDate
        location = location ?? other.location
        make = make ?? other.make
        model = model ?? other.model
        software = software ?? other.software
        contentIdentifier = contentIdentifier ?? other.contentIdentifier
    }

    mutating func set(key: String, text: String) {
        let value = text.trimmingNulsAndSpaces
        guard !value.isEmpty else { return }
        switch key {
        case "com.apple.quicktime.location.ISO6709", "©xyz", "location", "com.android.location":
            if location == nil { location = GeoLocation(iso6709: value) }
        case "com.apple.quicktime.creationdate", "©day", "date":
            if creationDate == nil { creationDate = MediaDate(parsing: value) }
        case "com.apple.quicktime.make", "©mak": make = make ?? value
        case "com.apple.quicktime.model", "©mod": model = model ?? value
        case "com.apple.quicktime.software", "©swr", "©too": software = software ?? value
        case "com.apple.quicktime.content.identifier": contentIdentifier = contentIdentifier ?? value
        default: break
        }
    }
}

extension MovieMetadata {
    /// Reads a `meta` box: `hdlr`, then `keys` + `ilst` (mdta) or `ilst` alone (mdir).
    static func parseMeta(_ meta: Box, reader: BoxReader) throws(ProbeError) -> MovieMetadata {
        // ISO `meta` is a full box (4 bytes of version and flags); QuickTime's is not.
        var peek = try reader.prefix(of: meta, count: 8)
        try peek.skip(4)
        let skip = (try? peek.fourCC()) == "hdlr" ? 0 : 4
        let children = try reader.children(of: meta, skip: skip)
        var keys: [String] = []
        if let keysBox = children.first("keys") {
            var r = try reader.payload(of: keysBox)
            try r.skip(4)
            let count = Int(try r.u32())
            guard count <= r.remaining / 8 else {
                throw r.error(.malformed, "'keys' claims \(count) entries but holds room for \(r.remaining / 8)")
            }
            for _ in 0..<count {
                let size = Int(try r.u32())
                guard size >= 8, size - 4 <= r.remaining else {
                    throw r.error(.malformed, "a key of \(size) bytes does not fit")
                }
                try r.skip(4)
                keys.append(String(decoding: try r.bytes(size - 8), as: UTF8.self))
            }
        }
        var metadata = MovieMetadata()
        guard let ilst = children.first("ilst") else { return metadata }
        for item in try reader.children(of: ilst) {
            let key: String
            if !keys.isEmpty, item.type.value >= 1, item.type.value <= UInt32(keys.count) {
                key = keys[Int(item.type.value) - 1]
            } else {
                key = item.type.description
            }
            guard item.payloadSize <= 4096 else { continue }
            for data in try reader.children(of: item) where data.type == "data" {
                var r = try reader.payload(of: data)
                let type = try r.u32() & 0xFF_FFFF
                try r.skip(4)
                let value = r.rest()
                switch type {
                case 1: metadata.set(key: key, text: String(decoding: value, as: UTF8.self))
                case 2: metadata.set(key: key, text: String(decoding: value.utf16BigEndian, as: UTF16.self))
                default: break
                }
            }
        }
        return metadata
    }

    /// Reads `udta`: QuickTime text atoms (`©xyz`, `©day`...) and a nested `meta`.
    static func parseUserData(_ udta: Box, reader: BoxReader) throws(ProbeError) -> MovieMetadata {
        var metadata = MovieMetadata()
        for box in try reader.children(of: udta) {
            if box.type == "meta" {
                metadata.merge(try parseMeta(box, reader: reader))
                continue
            }
            if box.type == "loci", box.payloadSize <= 4096, metadata.location == nil {
                metadata.location = try parseLocationInformation(try reader.payload(of: box))
                continue
            }
            if box.type == "TAGS" || box.type == "PENT", box.payloadSize >= 24, box.payloadSize <= 65_536 {
                metadata.merge(pentaxTags(try reader.payload(of: box), type: box.type))
                continue
            }
            let name = box.type.description
            guard name.hasPrefix("©"), box.payloadSize >= 4, box.payloadSize <= 4096 else { continue }
            var r = try reader.payload(of: box)
            // QuickTime international text: 16-bit length, 16-bit language, text.
            let length = Int(try r.u16())
            try r.skip(2)
            let text = length <= r.remaining ? try r.bytes(length) : r.rest()
            metadata.set(key: name, text: String(decoding: text, as: UTF8.self))
        }
        return metadata
    }
}

extension MovieMetadata {
    /// Old Pentax cameras' own user data, as exiftool's Pentax module reads it: `TAGS` (an Optio's
    /// movie: the make, 24 bytes from the start, which must read "PENTAX DIGITAL CAMERA"), and
    /// `PENT` (the make, the model at 0x1A and the date at 0x71, 24 bytes each). Little-endian
    /// numbers follow, which the probe does not need.
    static func pentaxTags(_ payload: ByteReader, type: FourCC) -> MovieMetadata {
        var metadata = MovieMetadata()
        // A 24-byte text field, up to its first NUL; nil past the payload's end.
        func text(_ offset: Int) -> String? {
            var field = payload
            guard (try? field.seek(to: offset)) != nil, field.remaining >= 24 else { return nil }
            return field.cString(limit: 24)
        }
        if type == "TAGS" {
            guard let make = text(0), make == "PENTAX DIGITAL CAMERA" else { return metadata }
            metadata.set(key: "©mak", text: make)
            return metadata
        }
        guard let make = text(0), make.uppercased().hasPrefix("PENTAX") else { return metadata }
        metadata.set(key: "©mak", text: make)
        if let model = text(0x1A) { metadata.set(key: "©mod", text: model) }
        if let date = text(0x71) { metadata.set(key: "©day", text: date) }
        return metadata
    }

    /// 3GPP `loci`: language, a name, a role, then longitude, latitude and
    /// altitude in signed 16.16 fixed point (what ffmpeg writes for `-metadata location`).
    static func parseLocationInformation(_ payload: ByteReader) throws(ProbeError) -> GeoLocation? {
        var r = payload
        try r.skip(4 + 2)
        _ = r.cString(limit: 1024)
        try r.skip(1)
        let longitude = Double(try r.i32()) / 65536
        let latitude = Double(try r.i32()) / 65536
        let altitude = Double(try r.i32()) / 65536
        let place = GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
        return place.isValid ? place : nil
    }
}

extension String {
    var trimmingNulsAndSpaces: String {
        var scalars = Substring(self)
        while let last = scalars.last, last == "\0" || last == " " || last == "\n" { scalars.removeLast() }
        while let first = scalars.first, first == " " { scalars.removeFirst() }
        return String(scalars)
    }
}

extension Array where Element == UInt8 {
    var utf16BigEndian: [UInt16] {
        stride(from: 0, to: count - 1, by: 2).map { UInt16(self[$0]) << 8 | UInt16(self[$0 + 1]) }
    }
}
