import SwiftUI

@main
@MainActor
struct PickAndUploadApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var delegate
    @Environment(\.scenePhase) private var phase
    private let background = Background.shared

    // At launch, not when a screen appears: iOS may launch the app in the
    // background for the session's events, with no scene at all.
    init() {
        Task { await Background.shared.start() }
    }

    var body: some Scene {
        WindowGroup {
            RootView()
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
