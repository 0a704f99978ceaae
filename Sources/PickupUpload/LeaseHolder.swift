#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the process holding an upload's lease is still alive, from `kill(pid, 0)`.
enum LeaseHolder {
    /// Whether this platform runs each app in a sandbox of its own (iOS, tvOS, watchOS,
    /// visionOS), where `kill` on any other app's process fails with `EPERM`.
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        static let sandboxed = true
    #else
        static let sandboxed = false
    #endif

    /// `signalled`: `kill(pid, 0)` succeeded; otherwise `errno` says why not. `EPERM` means a
    /// process with that id exists and may not be signalled: on Linux and macOS another user's
    /// (alive: the lease holds); in an app sandbox every other app's, so never a process of
    /// this app, which alone can open the journal in its container (the id was reused: the
    /// lease is free).
    static func isAlive(signalled: Bool, errno: Int32, sandboxed: Bool = LeaseHolder.sandboxed) -> Bool {
        if signalled { return true }
        return errno == EPERM && !sandboxed
    }
}
