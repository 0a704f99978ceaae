import Foundation
import Pickup
import PickupCommandLine

/// Where `pickup thumb` writes a file's images, what it decides about the ones there before any
/// is rendered, and what it removes of an earlier, longer strip.
extension ThumbJob {
    /// What a run does with `file`'s images, decided before any is rendered.
    enum Decision {
        /// Each made as asked from the file as it is: left as they are.
        case alreadyThere([String])
        /// One of them may not be written (a person's own file, another file's image): the
        /// file fails, and nothing of it is written.
        case refused(RenderError)
        /// Each written, and why one there is made again.
        case write([(path: String, again: OutputCheck.Again?)])
    }

    func decide(_ file: String, base: String, made: OutputRecord?) -> Decision {
        let paths = destinations(base: base)
        let fates = paths.map { OutputCheck.fate(of: $0, as: single ? nil : made, inputs: inputs, force: force) }
        if !single, fates.allSatisfy({ $0 == .alreadyThere }) { return .alreadyThere(paths) }
        var writes: [(path: String, again: OutputCheck.Again?)] = []
        for (path, fate) in zip(paths, fates) {
            switch fate {
            case .write: writes.append((path, nil))
            // Made before its file last changed (an edited photo), or with other options: made
            // again, and said so.
            case .writeAgain(let why): writes.append((path, why))
            case .alreadyThere:
                // Some of a strip's images there, others not: the ones there are not replaced.
                let refusal = OutputCheck.exists(path)
                return .refused(RenderError(.writeFailed, refusal.message, path: file, hint: refusal.hint))
            case .refused(let message, let hint):
                return .refused(RenderError(.writeFailed, message, path: file, hint: hint))
            }
        }
        return .write(writes)
    }

    /// How this run makes `file`'s images: from it as it is now, with the request and strip
    /// asked (a photo's without the frame time, which does not shape it).
    func record(of file: String) -> OutputRecord? {
        var shape = request
        if !MediaNames.videoExtensions.contains((file as NSString).pathExtension.lowercased()) {
            shape.time = .poster
            shape.tolerance = .keyframe
        }
        return OutputRecord(source: file, options: "thumb \(shape) strip \(strip ?? 0)")
    }

    /// The images of an earlier strip of `file` this strip does not write again (it had more
    /// frames, or was numbered to another width): those whose record says Pickup made them from
    /// this very file. A person's own file of such a name, or another file's strip, is kept.
    func staleStripImages(base: String, made: OutputRecord?) -> [String] {
        guard strip != nil, !single, let made else { return [] }
        let kept = Set(destinations(base: base))
        let first = destination(base: base, index: 1) as NSString
        let folder = first.deletingLastPathComponent
        let name = first.lastPathComponent
        guard let cut = name.range(of: "-strip-", options: .backwards) else { return [] }
        let prefix = String(name[..<cut.upperBound])
        let suffix = "." + request.format.fileExtension
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return names.sorted().compactMap { candidate in
            guard candidate.hasPrefix(prefix), candidate.hasSuffix(suffix),
                candidate.count > prefix.count + suffix.count
            else { return nil }
            let number = candidate.dropFirst(prefix.count).dropLast(suffix.count)
            guard number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            let path = (folder as NSString).appendingPathComponent(candidate)
            guard !kept.contains(path), OutputRecord.unchanged(path)?.source == made.source else { return nil }
            return path
        }
    }

    /// An image of an earlier, longer strip removed (or, in a dry run, that would be).
    func reportRemoved(_ file: String, _ path: String, planned: Bool) {
        if json {
            var object = JSONObject()
            object.add("type", planned ? "wouldRemove" : "removed")
            object.add("path", path)
            object.add("source", file)
            Console.out(object.text)
        } else {
            let what = planned ? "would be removed (--dry-run: nothing removed)" : "removed"
            Console.out(
                Text.clean(
                    "\(file) → \(path): \(what): an image of an earlier strip of it that this one does not write again")
            )
        }
    }

    /// The name each file's images are made from (`OutputNames`), with what earlier runs made.
    func outputNames() -> [String] {
        OutputNames.of(files) { OutputRecord.source(of: destination(base: $0, index: strip == nil ? nil : 1)) }
    }

    /// The images one file gives: `-o` itself for one file named, else each in the folder.
    func destinations(base: String) -> [String] {
        if single { return [output ?? ""] }
        return strip.map { count in (1...count).map { destination(base: base, index: $0) } }
            ?? [destination(base: base, index: nil)]
    }

    func destination(base name: String, index: Int?) -> String {
        // Numbered to the strip's width (01...99, 001...200), so that names sort as the frames do.
        let width = max(2, String(strip ?? 0).count)
        let suffix =
            index.map { "-strip-" + String(repeating: "0", count: max(0, width - String($0).count)) + String($0) }
            ?? "-thumb"
        let folder = output ?? "."
        return (folder as NSString).appendingPathComponent(name + suffix + "." + request.format.fileExtension)
    }
}
