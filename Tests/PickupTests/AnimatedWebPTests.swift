import Foundation
import Pickup
import PickupTestSupport
import Testing

/// The first frame of an animated WebP, as a still WebP of its own.
@Suite("animated WebP: the first frame as a still")
struct AnimatedWebPTests {
    @Test("the first frame of a real animated WebP is a still WebP of the frame's size")
    func firstFrame() throws {
        let bytes = try Fixtures.bytes(.webpAnimated)
        let (still, size) = try #require(AnimatedWebP.firstFrame(of: bytes))
        #expect(size == PixelSize(width: 160, height: 120))
        #expect(Array(still.prefix(4)) == Array("RIFF".utf8) && Array(still[8..<12]) == Array("WEBP".utf8))
        let length = Int(still[4]) | Int(still[5]) << 8 | Int(still[6]) << 16 | Int(still[7]) << 24
        #expect(length == still.count - 8)
        let info = try MediaProbe().probe(bytes: still)
        #expect(info.container == .webp && !info.animated)
        #expect(info.width == 160 && info.height == 120)
    }

    @Test("cut short, or not WebP at all: nil, never a crash")
    func badInput() throws {
        let bytes = try Fixtures.bytes(.webpAnimated)
        for length in [0, 8, 12, 30, 40, bytes.count / 2] {
            _ = AnimatedWebP.firstFrame(of: Array(bytes.prefix(length)))
        }
        #expect(AnimatedWebP.firstFrame(of: Array(bytes.prefix(40))) == nil)
        #expect(
            AnimatedWebP.firstFrame(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPANMF\u{FF}\u{FF}\u{FF}\u{7F}".utf8)) == nil)
        #expect(AnimatedWebP.firstFrame(of: try Fixtures.bytes(.jpegPlain)) == nil)
    }
}
