import PickupUI
import PickupUpload
import UIKit

/// The background session that goes on sending while the app is suspended,
/// made at launch with the identifier it had before, so that it exists when
/// iOS relaunches the app for its events.
@MainActor
final class Background {
    static let shared = Background()

    let session = Uploads.shared.uploader.map { BackgroundUploads(uploader: $0) }

    /// Follows the queue, and brings back what an earlier run left: each
    /// upload goes on from the server's offset, and those the background
    /// session still sends show as in the background.
    func start() async {
        guard let session, let queue = Uploads.shared.queue else { return }
        queue.start()
        _ = try? await session.restore(into: queue.queue)
        // Launched in the background for the session's events: the system
        // suspends the app soon, so the background session sends the rest.
        if UIApplication.shared.applicationState == .background {
            await session.handOff(queue.queue)
        }
    }

    /// Leaving the screen: every upload that runs or waits goes to the
    /// background session, one task a file, from the server's offset.
    func handOff() async {
        guard let session, let queue = Uploads.shared.queue else { return }
        await session.handOff(queue.queue)
    }

    /// Back on screen: the queue takes them back and goes on from the
    /// server's offset (the background session may have sent them all),
    /// and the copies of what is uploaded are removed.
    func takeBack() async {
        guard let session, let queue = Uploads.shared.queue else { return }
        await session.takeBack(queue.queue)
        if let library = AppModel.shared.library {
            let selected = AppModel.shared.loader.ready.compactMap(\.imported?.id)
            await Uploads.shared.removeUploaded(from: library, keeping: Set(selected))
        }
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        // Without a session (its journal could not open), iOS still waits
        // for the handler: call it, or the app is held for nothing.
        guard let session = Background.shared.session else { return completionHandler() }
        session.reattach(identifier: identifier, completionHandler: completionHandler)
    }
}
