import Foundation
import PickupTestSupport
import Testing

/// The progress bar as a terminal shows it (`script` gives the tool a pseudo-terminal).
@Suite("Progress on a terminal, end to end")
struct ProgressCommandTests {
    /// `count` movies of about `megabytes` MB each, all different: a real MP4 and a `free` box
    /// of bytes after it (ISO/IEC 14496-12 §8.1.2: a free box's contents are ignored).
    func movies(_ count: Int, megabytes: Int, in folder: String) throws {
        let movie = try Fixtures.bytes(.mp4Rotated90)
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var generator = SystemRandomNumberGenerator()
        for index in block.indices { block[index] = UInt8.random(in: 0...255, using: &generator) }
        for number in 0..<count {
            let size = UInt32(8 + megabytes << 20)
            var data = Data(movie)
            data.append(contentsOf: withUnsafeBytes(of: size.bigEndian, Array.init) + Array("free".utf8))
            for megabyte in 0..<megabytes {
                block[0] = UInt8(number)
                block[1] = UInt8(megabyte & 0xFF)
                data.append(contentsOf: block)
            }
            try data.write(to: URL(fileURLWithPath: folder + "/MOV_\(number).MP4"))
        }
    }

    @Test("an import of several large files at once: the bar says bytes of all, and never goes back")
    func importBar() throws {
        let folder = Temporary.path("cli-bar")
        defer { Temporary.remove(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/card", withIntermediateDirectories: true)
        try movies(6, megabytes: 48, in: folder + "/card")
        let command = "'\(CLI.tool)' import '\(folder)/card' --into '\(folder)/Library' --parallel 3"
        let result = try Shell.execute("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(result.status == 0, "\(result.outputText)")
        let frames = result.outputText.components(separatedBy: "\r").filter { $0.contains("%") && $0.contains("[") }
        #expect(!frames.isEmpty, "\(result.outputText)")
        let percents = frames.compactMap { frame -> Int? in
            guard let close = frame.range(of: "] "),
                let sign = frame.range(of: "%", range: close.upperBound..<frame.endIndex)
            else { return nil }
            return Int(frame[close.upperBound..<sign.lowerBound])
        }
        #expect(percents.count == frames.count)
        #expect(percents == percents.sorted(), "the bar went back: \(percents)")
        #expect(frames.contains { $0.contains(" of ") && $0.contains("MB") }, "bytes of all: \(frames.last ?? "")")
        #expect(result.outputText.contains("6 items: 6 imported"))
    }
}
