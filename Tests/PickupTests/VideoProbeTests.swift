import Pickup
import PickupTestSupport
import Testing

/// Movies made with ffmpeg at test time, probed through the public API.
@Suite("Probing movies")
struct VideoProbeTests {
    let probe = MediaProbe()

    func info(_ fixture: Fixture) throws -> MediaInfo {
        try probe.probe(path: try Fixtures.path(fixture))
    }

    @Test("a portrait movie reports a 90 degree turn and its upright size")
    func rotated() throws {
        let info = try info(.mp4Rotated90)
        #expect(info.kind == .video)
        #expect(info.container == .mp4)
        #expect(info.videoCodec == "h264")
        #expect(info.width == 320 && info.height == 240)
        #expect(info.rotation == .clockwise90)
        #expect(!info.orientation.mirrored)
        #expect(info.displayWidth == 240 && info.displayHeight == 320)
        #expect(abs((info.frameRate ?? 0) - 25) < 0.01)
        #expect(abs((info.duration ?? 0) - 1) < 0.05)
    }

    @Test("moov at the end and at the front give the same facts")
    func moovPlacement() throws {
        let end = try info(.mp4MoovAtEnd)
        let front = try info(.mp4Faststart)
        #expect(end.videoCodec == front.videoCodec)
        #expect(end.audioCodec == "aac" && front.audioCodec == "aac")
        #expect(end.width == front.width && end.height == front.height)
        #expect(end.duration == front.duration)
        #expect(end.frameRate == front.frameRate)
        #expect(end.audioSampleRate == 44100)
    }

    @Test("Apple's QuickTime keys: place, local date with offset, device, Live Photo identifier")
    func appleKeys() throws {
        let info = try info(.movAppleKeys)
        #expect(info.container == .mov)
        #expect(info.videoCodec == "hevc")
        #expect(info.rotation == .clockwise270)
        #expect(info.creationDate?.iso8601 == "2024-05-06T10:20:30+09:30")
        #expect(info.creationDate?.zone == .offset(seconds: 34_200))
        let place = try #require(info.location)
        #expect(abs(place.latitude - -33.8568) < 0.0001)
        #expect(abs(place.longitude - 151.2153) < 0.0001)
        #expect(abs((place.altitude ?? 0) - 5) < 0.5)
        #expect(info.make == "Apple")
        #expect(info.model == "iPhone 15 Pro")
        #expect(info.software == "17.4.1")
        #expect(info.contentIdentifier == "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001")
        #expect(info.livePhotoRole == .movie)
    }

    @Test("Android's location and the mvhd date in UTC")
    func androidLocation() throws {
        let info = try info(.mp4AndroidLocation)
        let place = try #require(info.location)
        #expect(abs(place.latitude - 37.7749) < 0.0001)
        #expect(abs(place.longitude - -122.4194) < 0.0001)
        #expect(info.creationDate?.iso8601 == "2022-07-01T09:30:00Z")
        #expect(info.creationDate?.zone == .utc)
    }

    @Test("fragmented MP4: duration and frame rate summed from the fragments")
    func fragmented() throws {
        let info = try info(.mp4Fragmented)
        #expect(abs((info.duration ?? 0) - 2) < 0.05)
        #expect(abs((info.frameRate ?? 0) - 30) < 0.3)
        #expect(info.width == 320)
    }

    @Test("10-bit HEVC with HLG is reported as HDR")
    func hdr() throws {
        let info = try info(.movHEVC10BitHLG)
        #expect(info.videoCodec == "hevc")
        #expect(info.bitDepth == 10)
        #expect(info.hdr == .hlg)
    }

    @Test("ProRes with PCM audio")
    func prores() throws {
        let info = try info(.movProRes)
        #expect(info.videoCodec == "prores")
        #expect(info.audioCodec == "pcm_s16le")
        #expect(info.audioSampleRate == 48000)
    }

    @Test("an M4A is audio: no picture facts")
    func audioOnly() throws {
        let info = try info(.m4aAudio)
        #expect(info.kind == .audio)
        #expect(info.container == .m4a)
        #expect(info.audioCodec == "aac")
        #expect(info.audioChannels == 2)
        #expect(info.width == nil && info.displayWidth == nil)
        #expect(abs((info.duration ?? 0) - 2) < 0.05)
        #expect(!info.facts.contains { $0.name == "rotation" })
    }

    @Test("WebM: VP9 and Opus, frame rate from block timestamps")
    func webm() throws {
        let info = try info(.webmVP9Opus)
        #expect(info.container == .webm)
        #expect(info.videoCodec == "vp9")
        #expect(info.audioCodec == "opus")
        #expect(info.width == 320 && info.height == 240)
        #expect(abs((info.frameRate ?? 0) - 25) < 0.25)
        #expect(abs((info.duration ?? 0) - 1) < 0.06)
    }

    @Test("Matroska: H.264 and AAC")
    func matroska() throws {
        let info = try info(.mkvH264AAC)
        #expect(info.container == .mkv)
        #expect(info.videoCodec == "h264")
        #expect(info.audioCodec == "aac")
        #expect(abs((info.frameRate ?? 0) - 25) < 0.25)
    }

    @Test("3GP and AV1 in MP4")
    func otherContainers() throws {
        let clip = try info(.threeGP)
        #expect(clip.container == .threeGP)
        #expect(clip.width == 176 && clip.height == 144)
        #expect(abs((clip.frameRate ?? 0) - 15) < 0.15)
        let av1 = try info(.mp4AV1)
        #expect(av1.videoCodec == "av1")
        #expect(av1.bitDepth == 8)
    }

    @Test("probing reads only the header boxes, not the media data")
    func readsLittle() throws {
        let path = try Fixtures.path(.mp4Large)
        let source = try FileByteSource(path: path)
        let info = try probe.probe(source: source)
        #expect(info.videoCodec == "h264")
        // Megabytes of media, moov at the end: the probe reads a window at the
        // start, the moov and the box headers between.
        #expect(source.size > 1_000_000)
        #expect(source.bytesRead < 200_000, "read \(source.bytesRead) of \(source.size) bytes")
    }

    @Test("the kind comes from the bytes, not the name")
    func contentNotName() throws {
        let bytes = try Fixtures.bytes(.mp4Rotated90)
        let fromPath = try info(.mp4Rotated90)
        let fromBytes = try probe.probe(bytes: bytes)
        #expect(fromBytes.videoCodec == fromPath.videoCodec)
        #expect(fromBytes.rotation == fromPath.rotation)
    }
}
