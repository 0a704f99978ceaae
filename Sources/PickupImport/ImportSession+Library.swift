import Pickup

extension ImportSession {
    /// Opens the library of `storage` (made when missing; by default the standard place,
    /// `Application Support/Pickup/Library` on iPhone), its folder excluded from backup.
    public static func library(
        in storage: PickupStorage = .standard, options: ImportOptions = ImportOptions()
    ) throws(ImportError) -> ImportSession {
        let session = try ImportSession(destination: storage.library, options: options)
        storage.excludeFromBackup(storage.root)
        return session
    }
}
