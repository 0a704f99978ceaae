import SwiftUI

@main
@MainActor
struct PickAndUploadApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var delegate
    @Environment(\.scenePhase) private var phase
    private let background = Background.shared

    var body: some Scene {
        WindowGroup {
            RootView().task { await background.start() }
        }
        .onChange(of: phase) { _, phase in
            switch phase {
            case .background: Task { await background.handOff() }
            case .active: Task { await background.takeBack() }
            default: break
            }
        }
    }
}
