import SwiftUI

@main
struct PickAndUploadApp: App {
    var body: some Scene {
        WindowGroup { PickScreen(model: .shared) }
    }
}
