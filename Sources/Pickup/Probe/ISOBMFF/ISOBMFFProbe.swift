/// Probes MP4, MOV, M4A/M4V, 3GP, HEIC/HEIF and AVIF: walks the top-level
/// boxes (headers only), then reads `moov`, `meta` and movie fragments.
enum ISOBMFFProbe {
    static func probe(_ source: ByteSource, limits: ProbeLimits) throws(ProbeError) -> MediaInfo {
        let reader = BoxReader(source: source, limits: limits)
        var fileType: FileType?
        var moov: Box?
        var meta: Box?
        var moofs: [Box] = []
        var uuids: [Box] = []
        var offset: Int64 = 0
        while source.size - offset >= 8 {
            let box: Box
            do {
                box = try reader.header(at: offset, end: source.size)
            } catch {
                // Bytes past the last whole box (a tag, padding) are not the picture or the movie
                // once the header boxes are in hand; a cut media box is: its samples, or the
                // HEIF image's data, are missing (an unfinished copy), and the file says so.
                if error.code == .truncated, moov != nil || meta != nil, error.element != "box 'mdat'" { break }
                throw error
            }
            switch box.type {
            case "ftyp" where fileType == nil: fileType = try FileType.parse(box, reader: reader)
            case "moov" where moov == nil: moov = box
            case "meta" where meta == nil: meta = box
            case "moof": moofs.append(box)
            case "uuid" where uuids.count < 8: uuids.append(box)
            default: break
            }
            offset = box.end
        }

        // A HEIF brand, or no movie at all, makes the file a still; an MP4 with a stray 'meta' stays a movie.
        if let meta, fileType?.isHEIF == true || moov == nil, let image = try HEIFImage.parse(meta, reader: reader) {
            // Not `moov.map`: the typed-throws `Optional.map` is newer than the iOS 17.4 SDK's standard library.
            var movie: Movie?
            if let moov { movie = try Movie.parse(moov, reader: reader) }
            return try stillInfo(image, movie: movie, fileType: fileType, source: source, limits: limits)
        }
        guard let moov else {
            if fileType?.isHEIF == true {
                throw ProbeError(.malformed, "the HEIF file has no primary image ('meta' with 'pitm')", offset: 0)
            }
            throw ProbeError(
                .truncated, "the file has no 'moov' box: it was cut short, or is not a finished movie", offset: offset)
        }
        var movie = try Movie.parse(moov, reader: reader)
        if fileType?.major == "crx " {
            var info = try canonRawInfo(movie, moov: moov, reader: reader, size: source.size)
            // A preview that does not read leaves the photo without one, not failed.
            info.preview = (try? canonPreview(in: uuids, reader: reader)) ?? nil
            return info
        }
        var fragments = FragmentTotals()
        if movie.isFragmented || !movie.hasSamples {
            for moof in moofs { try fragments.add(moof: moof, reader: reader, defaults: movie.trexDefaults) }
        }
        return try movieInfo(&movie, fragments: fragments, fileType: fileType, size: source.size, at: moov)
    }

    /// Canon's CR3: an ISO BMFF file whose tracks are the photo (raw, and JPEG previews), not
    /// a movie. Its EXIF is in CMT boxes inside the `uuid` box Canon puts in `moov`; its size is
    /// IFD0's there, else the largest track's.
    private static func canonRawInfo(
        _ movie: Movie, moov: Box, reader: BoxReader, size: Int64
    ) throws(ProbeError) -> MediaInfo {
        var info = MediaInfo(kind: .image, container: .cr3, fileSize: size)
        info.imageCodec = "cr3"
        info.exifOrientation = 1
        // Sizes from the file may be any numbers: compared as Doubles, never multiplied as Ints.
        if let largest = movie.tracks.filter({ $0.width > 0 && $0.height > 0 }).max(by: {
            Double($0.width) * Double($0.height) < Double($1.width) * Double($1.height)
        }) {
            info.width = largest.width
            info.height = largest.height
        }
        var blocks: [String: [UInt8]] = [:]
        for box in try reader.children(of: moov) where box.type == "uuid" {
            // The user type is the last 16 bytes of a `uuid` box's header.
            guard try reader.source.read(at: box.payloadOffset - 16, count: 16) == canonMetadataBox else { continue }
            for child in try reader.children(of: box) where ["CMT1", "CMT2", "CMT4"].contains(child.type) {
                blocks[child.type.description] = try reader.payload(of: child).bytes
            }
        }
        // EXIF that does not read leaves the photo without its facts, as a JPEG's does.
        if let exif = try? EXIFMetadata.parseCanonBlocks(
            ifd0: blocks["CMT1"], exif: blocks["CMT2"], gps: blocks["CMT4"], limits: reader.limits)
        {
            exif.fill(&info)
            // The picture's size, where the raw track's is the whole sensor's.
            if let width = exif.width, let height = exif.height, width > 0, height > 0 {
                info.width = width
                info.height = height
            }
        }
        info.orientation = Orientation(exifValue: info.exifOrientation ?? 1) ?? .upright
        return info
    }

    /// A CR3's preview JPEG: in the `PRVW` box (after 8 bytes) of the top-level `uuid` box
    /// eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16; the JPEG follows 16 bytes of its own (its length at 12).
    private static func canonPreview(in uuids: [Box], reader: BoxReader) throws(ProbeError) -> ByteRange? {
        for box in uuids {
            guard try reader.source.read(at: box.payloadOffset - 16, count: 16) == canonPreviewBox else { continue }
            // Eight bytes (a count and an offset) come before the box.
            for child in try reader.children(of: box, skip: 8) where child.type == "PRVW" && child.payloadSize > 16 {
                var head = try reader.prefix(of: child, count: 16)
                try head.skip(12)
                let range = ByteRange(offset: child.payloadOffset + 16, length: Int64(try head.u32()))
                return range.offset + range.length <= child.end ? range : nil
            }
        }
        return nil
    }

    static let canonPreviewBox: [UInt8] = [
        0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
    ]

    /// The user type of the `uuid` box that holds a CR3's metadata (85c0b687-820f-11e0-8111-f4ce462b6a48).
    static let canonMetadataBox: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    private static func movieInfo(
        _ movie: inout Movie, fragments: FragmentTotals, fileType: FileType?, size: Int64, at moov: Box
    ) throws(ProbeError) -> MediaInfo {
        let video =
            movie.tracks.first { $0.handler == .video && $0.codec != nil }
            ?? movie.tracks.first { $0.handler == .video }
            ?? movie.tracks.first { $0.isVisual }
        let audio = movie.tracks.first { $0.handler == .audio }
        let kind: MediaKind
        if let video, video.handler == .picture, fileType?.isHEIF == true {
            kind = .image
        } else if video != nil {
            kind = .video
        } else if audio != nil {
            kind = .audio
        } else {
            throw ProbeError(
                .malformed, "the movie holds no video or audio track", offset: moov.offset, element: "box 'moov'")
        }
        var info = MediaInfo(
            kind: kind, container: fileType?.container(imageCodec: nil) ?? .mov, fileSize: size)
        let fragmented = !movie.hasSamples && !fragments.samples.isEmpty

        if fragmented {
            var longest: Double?
            for track in movie.tracks where track.timescale > 0 {
                if let total = fragments.duration[track.id], total > 0 {
                    longest = max(longest ?? 0, Double(total) / Double(track.timescale))
                }
            }
            if let mehd = movie.fragmentDuration, mehd > 0, movie.timescale > 0 {
                longest = Double(mehd) / Double(movie.timescale)
            }
            info.duration = longest ?? movie.presentationSeconds
        } else {
            info.duration = movie.presentationSeconds
        }

        if let video {
            info.videoCodec = video.codec ?? video.sampleEntry?.description.trimmingNulsAndSpaces
            info.width = video.width > 0 ? video.width : nil
            info.height = video.height > 0 ? video.height : nil
            info.orientation = video.orientation
            info.bitDepth = video.bitDepth
            info.hdr = video.transfer.flatMap { HDRTransfer(transferCharacteristics: $0) }
            info.alpha = video.hasAlpha
            var samples = video.sampleCount
            var seconds = video.mediaSeconds
            if fragmented, let count = fragments.samples[video.id], let total = fragments.duration[video.id],
                video.timescale > 0
            {
                samples = count
                seconds = Double(total) / Double(video.timescale)
            }
            if let seconds, seconds > 0, samples > 0 {
                info.frameRate = Double(samples) / seconds
            }
            if kind == .image {
                info.imageCodec = info.videoCodec
                info.videoCodec = nil
                info.animated = samples > 1
                info.frameCount = samples > 0 ? Int(clamping: samples) : nil
            }
        }
        if let audio {
            info.audioCodec = audio.codec ?? audio.sampleEntry?.description.trimmingNulsAndSpaces
            info.audioChannels = audio.channels.flatMap { $0 > 0 ? $0 : nil }
            info.audioSampleRate =
                audio.sampleRate.flatMap { $0 > 0 ? $0 : nil } ?? (audio.timescale > 0 ? Int(audio.timescale) : nil)
        }
        let metadata = movie.metadata
        info.creationDate = metadata.creationDate ?? movie.creationDate
        info.location = metadata.location
        info.make = metadata.make
        info.model = metadata.model
        info.software = metadata.software
        info.contentIdentifier = metadata.contentIdentifier
        return info
    }

    private static func stillInfo(
        _ image: HEIFImage, movie: Movie?, fileType: FileType?, source: ByteSource, limits: ProbeLimits
    ) throws(ProbeError) -> MediaInfo {
        let container = fileType?.container(imageCodec: image.codec) ?? .heif
        var info = MediaInfo(kind: .image, container: container, fileSize: source.size)
        info.imageCodec = image.codec
        info.width = image.width
        info.height = image.height
        info.orientation = image.orientation
        info.bitDepth = image.bitDepth
        info.hdr = image.transfer.flatMap { HDRTransfer(transferCharacteristics: $0) }
        info.alpha = image.alpha
        info.capture.hasDepth = image.hasDepth
        info.exifOrientation = 1
        if let exif = image.exif, let metadata = try? EXIFMetadata.parse(exif, limits: limits) {
            // HEIF's EXIF orientation is reported, not applied: irot/imir decide.
            metadata.fill(&info)
        }
        if let movie, let sequence = movie.tracks.first(where: { $0.isVisual }), sequence.sampleCount > 1 {
            info.animated = true
            info.frameCount = Int(clamping: sequence.sampleCount)
            info.duration = movie.presentationSeconds
        }
        return info
    }
}
