import SwiftUI

@main
struct PickAndUploadApp: App {
    var body: some Scene {
        WindowGroup {
            RootView().task { await Uploads.shared.start() }
        }
    }
}
