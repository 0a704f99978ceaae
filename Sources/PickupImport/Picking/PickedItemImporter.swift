import Foundation
import Pickup

/// Takes files from the picker's inbox into the app's library: probed, imported (a Live
/// Photo as still and movie together), and removed from the inbox once the library has its
/// copy. A file the probe does not recognise is not failed: it is kept, as it came, with its
/// content type, under the library's `.pickup/unprobed/` folder.
public struct PickedItemImporter: Sendable {
    /// Where the picker's files wait to be imported.
    public let inbox: PickedFileInbox
    private let library: LockedValue<ImportSession?>
    private let open: @Sendable () throws(ImportError) -> ImportSession

    /// An importer into `session`, taking files from `inbox`.
    public init(session: ImportSession, inbox: PickedFileInbox = .temporary) {
        self.inbox = inbox
        library = LockedValue(session)
        open = { session }
    }

    /// An importer into the library `open` opens when the first item arrives (a library that
    /// cannot be opened fails each item with the reason, and is tried again for the next).
    public init(
        inbox: PickedFileInbox = .temporary, opening open: @escaping @Sendable () throws(ImportError) -> ImportSession
    ) {
        self.inbox = inbox
        library = LockedValue(nil)
        self.open = open
    }

    /// The library, opened now if it was not yet.
    public func session() throws(ImportError) -> ImportSession {
        if let open = library.current { return open }
        let opened = try open()
        library.withValue { $0 = opened }
        return opened
    }

    /// Imports `file` (with a Live Photo's `movie`) as the item `key`; the inbox copies are removed either way.
    public func keep(
        _ file: PickedFile, movie: PickedFile? = nil, key: String, note: PickNote? = nil
    ) async throws(ImportError) -> PickedItem {
        defer {
            inbox.discard(file)
            if let movie { inbox.discard(movie) }
        }
        let info: MediaInfo
        do {
            info = try MediaProbe().probe(path: file.path)
        } catch let error where error.code == .unrecognized {
            return PickedItem(key: key, stored: .unprobed(try keepUnprobed(file, reason: error.message)), note: note)
        } catch {
            throw ImportError(probeError: error, path: file.path)
        }
        let request = ImportRequest(path: file.path, info: info, livePhotoMovie: movie?.path)
        let library = try session()
        guard let result = await library.run([request]).first else {
            throw ImportError(.cancelled, "the import did not run", path: file.path)
        }
        switch result {
        case .imported(let item):
            return PickedItem(key: key, stored: .imported(item), note: note, isNew: true)
        case .reused(let item), .restored(let item), .completed(let item, _):
            // The library held it before this pick: deselecting it leaves it there.
            return PickedItem(key: key, stored: .imported(item), note: note, isNew: false)
        case .failed(let error): throw error
        }
    }

    /// Moves a file the probe does not know into `.pickup/unprobed/<UUID>/` of the library.
    func keepUnprobed(_ file: PickedFile, reason: String) throws(ImportError) -> UnprobedFile {
        let name = (file.path as NSString).lastPathComponent
        let folder = try session().library.hiddenFolder + "/unprobed/" + UUID().uuidString
        let target = folder + "/" + name
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file.path, toPath: target)
        } catch {
            throw ImportError(.destinationUnwritable, "the picked file could not be kept", path: file.path)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? NSNumber)?.int64Value ?? 0
        return UnprobedFile(path: target, contentType: file.contentType, size: size, reason: reason)
    }
}
