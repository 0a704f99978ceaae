import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupHTTP
import PickupImport
import PickupStore
import PickupUpload

/// What `--export` and `--strip-location` make before a file is sent: a video exported, a photo
/// rewritten without its place, each beside the journal until its upload is done.
extension UploadJob {
    /// How `--strip-location` rewrites a photo of this type; nil where it cannot.
    static func photoStripper(for type: String) -> (([UInt8]) throws(ProbeError) -> [UInt8])? {
        switch type {
        case "image/jpeg": return JPEGPrivacy.stripped
        case "image/heic", "image/heif", "image/avif": return HEIFPrivacy.stripped
        case "image/png": return PNGPrivacy.stripped
        case "image/webp": return WebPPrivacy.stripped
        case "image/gif": return GIFPrivacy.stripped
        default: return nil
        }
    }

    /// A photo rewritten without its place and camera (orientation and date kept), beside the
    /// journal until uploaded; nil (reported) when it cannot be rewritten.
    func strippedCopy(
        of file: (path: String, type: String), expected: FileIdentity?,
        using strip: ([UInt8]) throws(ProbeError) -> [UInt8]
    ) -> (path: String, type: String)? {
        // Written through Foundation, which takes UTF-8 names: a Latin-1 one is read as such.
        let name = SystemPath.readable((file.path as NSString).lastPathComponent)
        let folder = exportFolder + "/" + UUID().uuidString.prefix(8)
        let output = folder + "/" + name
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let source = try SourceFile(path: file.path, expected: expected)
            let bytes = [UInt8](try source.read(at: 0, count: Int(source.size)))
            try Data(try strip(bytes)).write(to: URL(fileURLWithPath: output), options: .atomic)
            return (output, file.type)
        } catch {
            notSent(
                file.path, code: "sourceUnreadable", message: "cannot strip its location (\(error)); it is not sent",
                hint: "Send it without --strip-location, or strip it with another tool first.")
            return nil
        }
    }

    /// A file that will not be sent, and why: an error line with --json, a message otherwise.
    func notSent(_ path: String, code: String, message: String, hint: String) {
        refused.withValue { $0 += 1 }
        if json {
            Console.out(JSONObject.failure(path: path, code: code, message: message, hint: hint).text)
        } else {
            Console.error(Text.clean("pickup upload: \(path): \(message). \(hint)"))
        }
    }

    /// Where exports wait for their upload: beside the journal, so a resumed upload finds them.
    var exportFolder: String {
        let folder = (journalPath as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/exports"
    }

    /// Each video exported with the preset (passthrough when only --strip-location is given);
    /// nil for a file that cannot be sent as asked (reported).
    func exportForUpload(
        _ files: [(path: String, type: String)], expected: [String: FileIdentity]
    ) async -> [(path: String, type: String)?] {
        // Readable by its owner only: what waits there is the user's photos and videos.
        try? FileManager.default.createDirectory(
            atPath: exportFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var result: [(path: String, type: String)?] = []
        for file in files {
            if Task.isCancelled { break }
            guard file.type.hasPrefix("video/") else {
                if stripLocation, let strip = UploadJob.photoStripper(for: file.type) {
                    result.append(strippedCopy(of: file, expected: expected[file.path], using: strip))
                } else if stripLocation {
                    notSent(
                        file.path, code: "sourceUnreadable",
                        message: "--strip-location can rewrite videos and JPEG, HEIC, AVIF, PNG, WebP and GIF photos, "
                            + "not this one (\(file.type)); it is not sent, so its location does not leave the machine",
                        hint: "Send it without --strip-location if its location may go with it.")
                    result.append(nil)
                } else {
                    result.append(file)
                }
                continue
            }
            if let identity = expected[file.path], FileStatus(path: file.path)?.identity != identity {
                notSent(
                    file.path, code: "sourceUnreadable",
                    message: "it is no longer the file found when its folder was read (it was replaced, by a link "
                        + "or another file); it is not sent",
                    hint: "Check what replaced it.")
                result.append(nil)
                continue
            }
            let sourceName = (file.path as NSString).lastPathComponent
            let name = (sourceName as NSString).deletingPathExtension
            let folder = exportFolder + "/" + UUID().uuidString.prefix(8)
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Streams copied as they are (only the location stripped) keep the source's name and
            // container (IMG_0263.MOV stays IMG_0263.MOV); a transcoded video becomes an MP4.
            let keepsContainer =
                (preset ?? .passthrough) == .passthrough
                && ["mov", "mp4", "m4v"].contains((sourceName as NSString).pathExtension.lowercased())
            let output = folder + "/" + (keepsContainer ? sourceName : name + ".mp4")
            let outputType = keepsContainer ? file.type : "video/mp4"
            // The export runs in pickup-render, which links FFmpeg.
            var arguments = [
                "export", file.path, "--preset", (preset ?? .passthrough).rawValue, "-o", output, "--json",
            ]
            if stripLocation { arguments.append("--strip-location") }
            let (status, text) = await RenderCommands.run(arguments)
            // Ctrl-C: pickup-render was stopped too, and wrote nothing; the run ends (said by the caller).
            if Task.isCancelled {
                unlink(output)
                rmdir(folder)
                break
            }
            let lines = text.split(separator: "\n").map(String.init)
            if status == 0, FileManager.default.fileExists(atPath: output) {
                if !json, !progress.quiet, let plan = lines.first {
                    Console.error(Text.clean("pickup upload: \(file.path): " + UploadJob.exportLine(plan)))
                }
                result.append((output, outputType))
            } else {
                let reason = lines.last ?? "pickup-render did not run"
                notSent(
                    file.path, code: "sourceUnreadable", message: "the export failed: \(reason); it is not sent",
                    hint: "Try 'pickup export' on it alone to see why, or send it without --export.")
                result.append(nil)
            }
        }
        return result
    }

    /// What an export's plan line (`pickup export --json`) says, in words: "location stripped,
    /// streams copied (passthrough: streams copied as they are)", "encoded again (...)".
    static func exportLine(_ planLine: String) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(planLine.utf8))) as? [String: Any]
        let plan = object?["plan"] as? String ?? "exported"
        let reason = (object?["reason"] as? String).map { " (" + $0 + ")" } ?? ""
        let what =
            switch plan {
            case "remux": "streams copied"
            case "encode": "encoded again"
            default: plan
            }
        return "made a copy to send, " + what + reason
    }
}
