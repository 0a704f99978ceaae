import SwiftUI

/// The app's two tabs: what the person picks, and what is uploading.
@MainActor
struct RootView: View {
    var body: some View {
        TabView {
            PickScreen(model: .shared)
                .tabItem { Label("Pick", systemImage: "photo") }
            UploadsScreen(model: .shared, uploads: .shared)
                .tabItem { Label("Uploads", systemImage: "icloud") }
        }
    }
}
