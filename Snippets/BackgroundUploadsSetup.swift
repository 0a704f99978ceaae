// Uploads that go on while the app is suspended: one journal for the
// foreground queue and the background session; tus uploads handed to the
// background session when the app leaves the screen, taken back when it
// returns; iOS's relaunch for the session's events passed on by the delegate.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit)
// snippet.show
import PickupUI
import PickupUpload
import SwiftUI
import UIKit

/// The app's uploads: one journal, read and written by the queue and by
/// the background session alike.
@MainActor
final class AppUploads {
    static let shared = try? AppUploads()

    let journal: UploadJournal
    let model: UploadQueueModel
    let background: BackgroundUploads
    private var handedOff: [Int] = []

    init() throws {
        // Application Support/Pickup/uploads.sqlite, not backed up
        journal = try UploadJournal()
        var options = UploadOptions()
        // sent with each foreground request, never journaled
        options.headers = ["Authorization": "Bearer …"]
        let uploader = Uploader(journal: journal, options: options)
        model = UploadQueueModel(
            queue: UploadQueue(
                uploader: uploader, concurrency: 2,
                background: UIKitBackgroundTime()))
        // recreates the background session (same identifier) at launch
        background = BackgroundUploads(journal: journal)
        model.start()
        let queue = model.queue
        // uploads an earlier run left unfinished, from the server's offset
        Task { _ = try? await queue.restoreUnfinished() }
    }

    /// The app leaves the screen: its tus uploads go to the background
    /// session, from the offset the journal holds. S3 and form uploads go
    /// on in the queue, for the background time iOS gives.
    func handOff() async {
        let queue = model.queue
        var paused: [Int] = []
        for item in await queue.all() where item.state == .uploading {
            guard let id = item.uploadID,
                let record = try? await journal.record(id: id),
                case .tus = record.destination
            else { continue }
            await queue.pause(item.id)
            paused.append(item.id)
        }
        for queued in paused {
            // the request stops at once; its place is in the journal
            while await queue.item(queued)?.state == .uploading {
                try? await Task.sleep(for: .milliseconds(20))
            }
            let item = await queue.item(queued)
            guard let id = item?.uploadID else { continue }
            handedOff.append(queued)
            // a chunk that cannot start leaves it to the queue on return
            try? await background.sendNextChunk(of: id)
        }
    }

    /// Back on screen: the queue goes on from the server's offset (the
    /// background session may have sent more, or everything).
    func takeBack() async {
        for id in handedOff { await model.queue.resume(id) }
        handedOff = []
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        // iOS relaunched the app for the session: let it finish its events
        AppUploads.shared?.background.reattach(
            identifier: identifier, completionHandler: completionHandler)
    }
}

// The app: in an app target, make it the entry point (the main attribute).
@MainActor
struct UploadingApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var delegate
    @Environment(\.scenePhase) private var phase

    var body: some Scene {
        WindowGroup {
            if let uploads = AppUploads.shared {
                UploadQueueView(model: uploads.model)
            } else {
                Text("The upload journal could not be opened.")
            }
        }
        .onChange(of: phase) { _, phase in
            guard let uploads = AppUploads.shared else { return }
            switch phase {
            case .background: Task { await uploads.handOff() }
            case .active: Task { await uploads.takeBack() }
            default: break
            }
        }
    }
}
// snippet.hide
#endif
