/// Probes JPEG: walks the marker segments up to the first scan, reading the
/// frame header (size, precision), the EXIF APP1 segment, a FLIR camera's records, and XMP's
/// or IPTC's date.
enum JPEGProbe {
    static func probe(_ source: ByteSource, limits: ProbeLimits) throws(ProbeError) -> MediaInfo {
        var info = MediaInfo(kind: .image, container: .jpeg, fileSize: source.size)
        info.imageCodec = "jpeg"
        info.exifOrientation = 1
        var offset: Int64 = 2
        var segments = 0
        var exif: EXIFMetadata?
        // XMP's or IPTC's date, for a file whose EXIF gives none.
        var textDate: MediaDate?
        // A FLIR thermal camera's own records (date, model, place), in segments of their own.
        var flir = FLIRRecords()
        while offset + 4 <= source.size {
            segments += 1
            guard segments <= limits.maxElements else {
                throw ProbeError(.limitExceeded, "more than \(limits.maxElements) JPEG segments", offset: offset)
            }
            var header = ByteReader(try source.read(at: offset, count: 4), base: offset, element: "JPEG marker")
            guard try header.u8() == 0xFF else {
                throw ProbeError(.malformed, "expected a JPEG marker (0xFF)", offset: offset, element: "JPEG marker")
            }
            let marker = try header.u8()
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            if marker == 0xD9 { break }  // end of image
            if marker == 0xDA {  // start of scan: the image data, whole only if it ends
                try JPEGEnd.check(source, scanAt: offset)
                break
            }
            let length = Int(try header.u16())
            let name = "JPEG segment 0x" + String(marker, radix: 16, uppercase: true)
            guard length >= 2 else {
                throw ProbeError(
                    .malformed, "segment length \(length) is shorter than its own field", offset: offset, element: name)
            }
            let payloadOffset = offset + 4
            let payloadSize = length - 2
            guard payloadOffset + Int64(payloadSize) <= source.size else {
                throw ProbeError(
                    .truncated, "segment claims \(payloadSize) bytes but the file ends first", offset: offset,
                    element: name)
            }
            if isFrameHeader(marker) {
                var r = ByteReader(
                    try source.read(at: payloadOffset, count: min(payloadSize, 6)), base: payloadOffset, element: name)
                info.bitDepth = Int(try r.u8())
                let height = Int(try r.u16())
                let width = Int(try r.u16())
                if info.width == nil {
                    info.width = width
                    info.height = height > 0 ? height : nil
                }
            } else if marker == 0xE1, payloadSize > 14 {
                let head = try source.read(at: payloadOffset, count: min(payloadSize, JPEGTextDates.xmpHeader.count))
                if exif == nil, head.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) {  // "Exif\0\0"
                    let block = try source.read(at: payloadOffset + 6, count: payloadSize - 6)
                    exif = try? EXIFMetadata.parse(block, limits: limits, fileBase: payloadOffset + 6)
                } else if FLIRRecords.isSegment(head) {
                    flir.add(try source.read(at: payloadOffset, count: payloadSize))
                } else if textDate == nil, head == JPEGTextDates.xmpHeader {
                    textDate = JPEGTextDates.xmpDate(try source.read(at: payloadOffset, count: payloadSize))
                }
            } else if marker == 0xED, textDate == nil, payloadSize > JPEGTextDates.photoshopHeader.count {
                let block = try source.read(at: payloadOffset, count: payloadSize)
                if block.starts(with: JPEGTextDates.photoshopHeader) {
                    textDate = JPEGTextDates.iptcDate(Array(block.dropFirst(JPEGTextDates.photoshopHeader.count)))
                }
            }
            offset = payloadOffset + Int64(payloadSize)
        }
        guard info.width != nil else {
            throw ProbeError(.truncated, "the JPEG has no frame header (SOF) before its data", offset: offset)
        }
        if let exif {
            exif.fill(&info)
            info.orientation = Orientation(exifValue: info.exifOrientation ?? 1) ?? .upright
        }
        flir.fill(&info)
        info.creationDate = info.creationDate ?? textDate
        return info
    }

    /// SOF0...SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
