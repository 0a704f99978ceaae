import CPickupSystem
import Foundation
import Pickup
import PickupStore

/// How an output Pickup named after its source was made: from which file (its path, size and
/// modification time then), with which options. Kept on the output itself, as an extended
/// attribute (`user.pickup.made`), so that a run again tells an output made as asked from the
/// file as it is now (already there) from one asked differently (`--size`, `--strip-location`,
/// `--trim`), one made before its file changed (even to an older time: `cp -p`), one made from
/// another file of the same name, and a file Pickup did not make.
public struct OutputRecord: Sendable, Equatable {
    /// The source's absolute path, links resolved.
    public let source: String
    /// The source's size and modification time (nanoseconds) when the output was made.
    public let size: Int64
    public let modified: Int64
    /// A digest of the options that shape the output.
    public let options: String
    /// The output's own size and modification time when Pickup wrote it (nil in a record an
    /// earlier Pickup kept): an output written over in place since (`cp photo.jpg x-thumb.jpg`
    /// keeps the attribute) is no longer Pickup's, and is neither kept nor replaced.
    public let written: Written?

    /// An output's size and modification time (nanoseconds).
    public struct Written: Sendable, Equatable {
        public let size: Int64
        public let modified: Int64
    }

    /// The record of an output of `source` as it is now, made with `options` (any text that
    /// changes when an option that shapes the output does); nil when the source cannot be read.
    public init?(source: String, options: String) {
        guard let status = FileStatus(path: source) else { return nil }
        // Links resolved, so that the same file by another name has the same record.
        self.source = SystemPath.resolved(source) ?? source
        size = status.size
        modified = status.modified
        self.options = Digest.hex(Array(Digest.sha256(Array(options.utf8)).prefix(12)))
        written = nil
    }

    init(source: String, size: Int64, modified: Int64, options: String, written: Written?) {
        self.source = source
        self.size = size
        self.modified = modified
        self.options = options
        self.written = written
    }

    /// Whether `output` is as Pickup wrote it: its size and modification time those kept (or
    /// none kept, by an earlier Pickup).
    /// The time within two seconds: a copy kept with its attributes on a file system of coarser
    /// times (FAT's two seconds, HFS+'s one, a tar archive's) is the same output, not an edit.
    public func isAsWritten(_ output: FileStatus) -> Bool {
        written.map { $0.size == output.size && abs($0.modified - output.modified) <= 2_000_000_000 } ?? true
    }

    /// What an output carries.
    public enum Found: Sendable, Equatable {
        /// The record Pickup kept when it made it.
        case made(OutputRecord)
        /// None, where the file system keeps records: a file Pickup did not make (or an older
        /// Pickup made).
        case none
        /// None can be kept here (a file system without extended attributes).
        case unsupported
    }

    static let attribute = "user.pickup.made"

    /// The record kept on `output`.
    public static func read(_ output: String) -> Found {
        // Room for a source path of PATH_MAX (4096 bytes) and the fields before it.
        var buffer = [UInt8](repeating: 0, count: 8_192)
        let count = buffer.withUnsafeMutableBytes { raw in
            pickup_get_attribute(output, attribute, raw.baseAddress, Int64(raw.count))
        }
        guard count > 0 else { return count < 0 && errno == ENOTSUP ? .unsupported : .none }
        // Version 3: options, the source's size and time, the output's size and time, the
        // source's path (last: it may hold anything but a NUL). Version 2 lacks the output's.
        let text = String(decoding: buffer.prefix(Int(count)), as: UTF8.self)
        let fields = text.hasPrefix("3\n") ? 7 : 5
        let lines = text.split(separator: "\n", maxSplits: fields - 1, omittingEmptySubsequences: false)
        guard lines.count == fields, ["2", "3"].contains(lines[0]), let size = Int64(lines[2]),
            let modified = Int64(lines[3])
        else { return .none }
        var written: Written?
        if fields == 7 {
            guard let outputSize = Int64(lines[4]), let outputModified = Int64(lines[5]) else { return .none }
            written = Written(size: outputSize, modified: outputModified)
        }
        return .made(
            OutputRecord(
                source: String(lines[fields - 1]), size: size, modified: modified, options: String(lines[1]),
                written: written))
    }

    /// The record on `output` when it is as Pickup wrote it (not written over in place since).
    public static func unchanged(_ output: String) -> OutputRecord? {
        guard case .made(let record) = read(output), let status = FileStatus(path: output), record.isAsWritten(status)
        else { return nil }
        return record
    }

    /// The file `output` was made from, when it is Pickup's as it wrote it (nil: no file there, a
    /// person's own, or one edited since).
    public static func source(of output: String) -> String? {
        unchanged(output)?.source
    }

    /// Keeps this record on `output`; where the file system has no extended attributes, nothing
    /// is kept and nothing fails.
    public func write(on output: String) {
        guard let status = FileStatus(path: output) else { return }
        keep(on: output, written: status)
        // Where keeping an attribute changes the file's time (some network and FUSE file
        // systems), the record is written again with the time it has now.
        if let after = FileStatus(path: output), !OutputRecord.sameSizeAndTime(after, status) {
            keep(on: output, written: after)
        }
    }

    private static func sameSizeAndTime(_ one: FileStatus, _ other: FileStatus) -> Bool {
        one.size == other.size && one.modified == other.modified
    }

    private func keep(on output: String, written status: FileStatus) {
        let text = Array("3\n\(options)\n\(size)\n\(modified)\n\(status.size)\n\(status.modified)\n\(source)".utf8)
        _ = text.withUnsafeBytes { raw in
            pickup_set_attribute(output, OutputRecord.attribute, raw.baseAddress, Int64(raw.count))
        }
    }
}
