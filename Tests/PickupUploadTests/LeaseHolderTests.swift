import Glibc
import Testing

@testable import PickupUpload

/// Who holds an upload's lease, from `kill(pid, 0)` as each platform answers it.
@Suite("Lease holders")
struct LeaseHolderTests {
    @Test("EPERM is a living process (another user's; in an app sandbox, the app's share extension): the lease holds")
    func sandboxedPermissionDenied() {
        // iOS: a sandboxed process may signal no other process, its own app's extension among
        // them; kill(2) fails with EPERM for them. The lease, not the pid, then decides.
        #expect(LeaseHolder.isAlive(signalled: false, errno: EPERM))
    }

    @Test("no such process, anywhere: the lease is free")
    func noSuchProcess() {
        #expect(!LeaseHolder.isAlive(signalled: false, errno: ESRCH))
        #expect(LeaseHolder.isAlive(signalled: true, errno: 0))
    }
}
