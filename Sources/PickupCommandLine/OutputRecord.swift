import CPickupSystem
import Foundation
import PickupStore

/// How an output Pickup named after its source was made: from which file, with which options.
/// Kept on the output itself, as an extended attribute (`user.pickup.made`), so that a run again
/// tells an output made as asked (already there) from one asked differently (`--size`,
/// `--strip-location`, `--trim`: made again) or made from another file of the same name
/// (refused). A file system without extended attributes keeps none; such an output is judged
/// by its time alone, as before.
public struct OutputRecord: Sendable, Equatable {
    /// The source's absolute path, links resolved.
    public let source: String
    /// A digest of the options that shape the output.
    public let options: String

    /// The record of an output of `source` made with `options` (any text that changes when an
    /// option that shapes the output does).
    public init(source: String, options: String) {
        self.source = OutputRecord.resolved(source)
        self.options = Digest.hex(Array(Digest.sha256(Array(options.utf8)).prefix(12)))
    }

    init(source: String, digest: String) {
        self.source = source
        options = digest
    }

    static let attribute = "user.pickup.made"

    /// The record kept on `output`, nil when it has none (made by another tool, an older Pickup,
    /// or on a file system without extended attributes).
    public static func read(_ output: String) -> OutputRecord? {
        var buffer = [UInt8](repeating: 0, count: 4_200)
        let count = buffer.withUnsafeMutableBytes { raw in
            pickup_get_attribute(output, attribute, raw.baseAddress, Int64(raw.count))
        }
        guard count > 0 else { return nil }
        let lines = String(decoding: buffer.prefix(Int(count)), as: UTF8.self).split(
            separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count == 3, lines[0] == "1" else { return nil }
        return OutputRecord(source: String(lines[2]), digest: String(lines[1]))
    }

    /// Keeps this record on `output`; where the file system has no extended attributes, nothing
    /// is kept and nothing fails.
    public func write(on output: String) {
        let text = Array("1\n\(options)\n\(source)".utf8)
        _ = text.withUnsafeBytes { raw in
            pickup_set_attribute(output, OutputRecord.attribute, raw.baseAddress, Int64(raw.count))
        }
    }

    /// `path` absolute with its links resolved, as it is when it cannot be.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else {
            return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
        defer { free(real) }
        return String(cString: real)
    }
}
