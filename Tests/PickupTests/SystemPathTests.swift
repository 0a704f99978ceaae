import Pickup
import Testing

/// `SystemPath`: any bytes a file system may hold in a name travel in a `String` and come back
/// whole; UTF-8 is left as it is.
@Suite("paths that are not UTF-8")
struct SystemPathTests {
    /// The bytes `withCString` hands a system call for `path`.
    func bytes(_ path: String) -> [UInt8] {
        SystemPath.withCString(path) { pointer in
            var found: [UInt8] = []
            var index = 0
            while pointer[index] != 0 {
                found.append(UInt8(bitPattern: pointer[index]))
                index += 1
            }
            return found
        }
    }

    @Test("any bytes but NUL come back as they were, 2,000 random names and the edge cases")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        var names: [[UInt8]] = [
            Array("caf".utf8) + [0xE9] + Array(".jpg".utf8),  // Latin-1 é
            [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],  // cut sequences
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0xFF, 0xFE, 0x80, 0xBF],
            Array("日本/写真.HEIC".utf8),
        ]
        for _ in 0..<2000 {
            let length = Int.random(in: 1...24, using: &generator)
            names.append((0..<length).map { _ in UInt8.random(in: 1...255, using: &generator) })
        }
        for name in names {
            let path = SystemPath.string(fromBytes: name)
            #expect(bytes(path) == name, "\(name)")
            // Nothing repaired into U+FFFD (EF BF BD) that the name did not hold itself.
            let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
            let held = name.indices.contains { name[$0...].starts(with: replacement) }
            #expect(!path.unicodeScalars.contains("\u{FFFD}") || held, "\(name)")
        }
    }

    @Test("UTF-8 stays as it is; raw bytes are seen, and read as Latin-1 where UTF-8 is needed")
    func readable() {
        let utf8 = "Été/写真 1.HEIC"
        #expect(SystemPath.string(fromBytes: Array(utf8.utf8)) == utf8)
        #expect(!SystemPath.hasRawBytes(utf8))
        #expect(SystemPath.readable(utf8) == utf8)
        let latin1 = SystemPath.string(fromBytes: Array("f".utf8) + [0xEA] + Array("te.mp4".utf8))
        #expect(SystemPath.hasRawBytes(latin1))
        #expect(latin1 != "fête.mp4", "the name leads to its own bytes, not to the UTF-8 spelling")
        #expect(SystemPath.readable(latin1) == "fête.mp4")
        #expect(latin1.unicodeScalars.compactMap(SystemPath.rawByte) == [0xEA])
    }
}
