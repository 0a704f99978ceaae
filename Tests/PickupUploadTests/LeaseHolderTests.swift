import Glibc
import Testing

@testable import PickupUpload

/// Who holds an upload's lease, from `kill(pid, 0)` as each platform answers it.
@Suite("Lease holders")
struct LeaseHolderTests {
    @Test("in an app sandbox, EPERM is another app's process: the lease is free (a reused pid)")
    func sandboxedPermissionDenied() {
        // iOS: a sandboxed app may signal no other app's process; kill(2) fails with EPERM for them.
        #expect(!LeaseHolder.isAlive(signalled: false, errno: EPERM, sandboxed: true))
    }

    @Test("on Linux and macOS, EPERM is another user's living process: the lease holds")
    func desktopPermissionDenied() {
        #expect(LeaseHolder.isAlive(signalled: false, errno: EPERM, sandboxed: false))
    }

    @Test("no such process, anywhere: the lease is free")
    func noSuchProcess() {
        #expect(!LeaseHolder.isAlive(signalled: false, errno: ESRCH, sandboxed: false))
        #expect(!LeaseHolder.isAlive(signalled: false, errno: ESRCH, sandboxed: true))
        #expect(LeaseHolder.isAlive(signalled: true, errno: 0, sandboxed: true))
    }
}
