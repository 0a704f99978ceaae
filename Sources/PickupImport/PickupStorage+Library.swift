import Pickup

extension PickupStorage {
    /// Opens the library (made when missing), its folder excluded from backup.
    public func openLibrary(options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportSession {
        let session = try ImportSession(destination: library, options: options)
        excludeFromBackup(root)
        return session
    }
}
