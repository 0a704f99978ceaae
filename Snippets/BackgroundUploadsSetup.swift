// Uploads that go on while the app is suspended: journaled tus chunks sent from a
// background URLSession, reattached when iOS wakes the app.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit)
// snippet.show
import PickupUI
import PickupUpload
import UIKit

final class AppDelegate: NSObject, UIApplicationDelegate {
    let background: BackgroundUploads? = (try? UploadJournal()).map {
        BackgroundUploads(journal: $0)
    }

    func application(
        _ application: UIApplication,
        handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        background?.reattach(
            identifier: identifier, completionHandler: completionHandler)
    }

    /// When the app goes to the background with a tus upload under way
    /// (its id
    /// in the journal).
    func continueInBackground(_ id: String) async {
        do {
            try await background?.sendNextChunk(of: id)
        } catch {
            // the foreground Uploader resumes it later from the journal
            print(error)
        }
    }
}
// snippet.hide
#endif
