#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the process holding an upload's lease is still alive, from `kill(pid, 0)`.
enum LeaseHolder {
    /// `signalled`: `kill(pid, 0)` succeeded; otherwise `errno` says why not. `EPERM` means a
    /// process with that id exists and may not be signalled: on Linux and macOS another user's;
    /// in an app sandbox any other process, the app's own share extension among them, which may
    /// send uploads of a journal the two share in an App Group container. Alive, on every
    /// platform: the lease still bounds the claim (`UploadJournal.leaseSeconds`), so an id
    /// reused by another app after a crash holds an upload back for that long at most.
    static func isAlive(signalled: Bool, errno: Int32) -> Bool {
        signalled || errno == EPERM
    }
}
