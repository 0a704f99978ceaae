#if canImport(SwiftUI)
    import Foundation

    /// PickupUI's words, from its String Catalog (`Localizable.xcstrings`: English and Japanese).
    enum Localized {
        /// A fixed phrase of PickupUI's own.
        static func string(_ key: String.LocalizationValue) -> String {
            String(localized: key, bundle: .module)
        }

        /// A message made by Pickup's core (a picking failure, the camera's availability), in the
        /// person's language when the catalog has it; as it is otherwise.
        static func message(_ text: String) -> String {
            Bundle.module.localizedString(forKey: text, value: text, table: nil)
        }
    }
#endif
