import Foundation
import Pickup
import PickupCommandLine

/// What a folder's walk (`upload -r`) sends: the photos and videos in it, and an iPhone's edits
/// (IMG_0001.AAE beside IMG_0001.HEIC), as import keeps them with their item; the other files
/// (notes, .DS_Store, sidecars, empty files) are left alone. A file named on the command line is sent whatever
/// it is, and so is one named as media that the probe cannot read (a damaged .jpg is still a
/// photo to keep).
extension UploadJob {
    /// The files to send, their probes in the same order, and the walked files left alone.
    static func mediaOnly(
        _ files: [ResolvedFile], probes: [Result<MediaInfo, ProbeError>]
    ) -> (files: [ResolvedFile], probes: [Result<MediaInfo, ProbeError>], leftAlone: [String]) {
        func isMedia(_ index: Int) -> Bool {
            guard files[index].walked, case .failure(let error) = probes[index] else { return true }
            return !MediaNames.leftAlone(after: error, path: files[index].path)
        }
        let media = files.indices.filter(isMedia)
        // The same folder and name without the extension, in any case, as import pairs edits.
        let stems = Set(media.map { MediaNames.editsKey(files[$0].path) })
        var kept: [Int] = []
        var leftAlone: [String] = []
        for index in files.indices {
            let path = files[index].path
            if isMedia(index) || (MediaNames.namedAsEdits(path) && stems.contains(MediaNames.editsKey(path))) {
                kept.append(index)
            } else {
                leftAlone.append(path)
            }
        }
        return (kept.map { files[$0] }, kept.map { probes[$0] }, leftAlone)
    }

    /// Says which walked files are not sent: with --json a line each for what is not media (the
    /// others were said as found), else a line for each reason, as every command says it.
    func reportLeftAlone(
        _ paths: [String], passedOver: [(path: String, reason: String)] = [], notTaken: Int = 0
    ) {
        if json {
            for path in paths { Console.out(JSONObject.leftAlone(path: path, reason: "not a photo or video").text) }
            return
        }
        let reason = "not a photo or video"
        let lines = NamedFiles.leftAloneLines(
            passedOver + paths.map { ($0, reason) }, command: "pickup upload",
            hints: [reason: "name a file to send it whatever it is"], notTaken: notTaken)
        for line in lines + NamedFiles.emptyFolderLines(files, command: "pickup upload") { Console.error(line) }
    }
}
