// Uploads that go on while the app is suspended: one journal for the
// foreground queue and the background session; every upload handed to the
// background session when the app leaves the screen (one task a file),
// taken back when it returns; iOS's relaunch for the session's events passed
// on by the delegate.

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

    let model: UploadQueueModel
    let background: BackgroundUploads

    init() throws {
        // Application Support/Pickup/uploads.sqlite, not backed up
        let journal = try UploadJournal()
        var options = UploadOptions()
        // sent with each request, foreground and background; never journaled
        options.headers = ["Authorization": "Bearer …"]
        let uploader = Uploader(journal: journal, options: options)
        model = UploadQueueModel(
            queue: UploadQueue(
                uploader: uploader, concurrency: 2,
                background: UIKitBackgroundTime()))
        // recreates the background session (same identifier) at launch
        background = BackgroundUploads(uploader: uploader)
        model.start()
        let queue = model.queue
        let background = self.background
        // what an earlier run left unfinished, from the server's offset;
        // what the background session still sends shows as in the background
        Task { @MainActor in
            _ = try? await background.restore(into: queue)
            // launched in the background for the session's events: the
            // system suspends the app soon, so the background session sends
            if UIApplication.shared.applicationState == .background {
                await background.handOff(queue)
            }
        }
    }

    /// A long video goes to the background session at once, while the app
    /// is on screen: its task is not left to the system's discretion.
    func sendVideo(at path: String, to endpoint: URL) async throws {
        try await background.send(
            path: path, to: .tus(endpoint: endpoint),
            type: "video/quicktime",
            on: model.queue)
    }

    /// The app leaves the screen: every upload that runs or waits goes to
    /// the background session, one task a file, from the server's offset.
    func handOff() async {
        await background.handOff(model.queue)
    }

    /// Back on screen: the queue takes the tus uploads back and asks the
    /// server's offset (the background session may have sent part, or all);
    /// S3 and form uploads stay with the background session until they end.
    func takeBack() async {
        await background.takeBack(model.queue)
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        // iOS relaunched the app for the session: let it finish its events.
        // Without one (the journal could not open), call the handler now.
        guard let uploads = AppUploads.shared else {
            return completionHandler()
        }
        uploads.background.reattach(
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
