import SwiftUI

@MainActor
struct PickScreen: View {
    let model: AppModel

    var body: some View {
        Text(model.problem ?? "Ready to pick")
    }
}
