import Foundation
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

    @Test(
        "/proc/PID/stat: a zombie or an exiting process is ending; a running one, or a name with ') ' in it, is read right"
    )
    func statLines() {
        // proc(5): "pid (comm) state ppid pgrp session tty_nr tpgid flags ..."; PF_EXITING is 0x4.
        #expect(LeaseHolder.isEnding(stat: "42 (pickup) Z 1 42 42 0 -1 4194560 0 0") == true)
        #expect(LeaseHolder.isEnding(stat: "42 (pickup) R 1 42 42 0 -1 4194564 0 0") == true)
        #expect(LeaseHolder.isEnding(stat: "42 (pickup) S 1 42 42 0 -1 4194560 0 0") == false)
        #expect(LeaseHolder.isEnding(stat: "42 (a) Z (b) S 1 42 42 0 -1 4194560 0 0") == false)
        #expect(LeaseHolder.isEnding(stat: "not a stat line") == nil)
    }

    @Test("a killed process its parent has not reaped (a zombie) holds no lease, though kill(pid, 0) still succeeds")
    func zombieHoldsNothing() throws {
        // sh starts a child that ends at once, then becomes `sleep 5`, which never reaps it.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "sleep 0.01 & echo $!; exec sleep 5"]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        defer { shell.terminate() }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let child = try #require(Int64(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        var ending = false
        for _ in 0..<100 where !ending {
            usleep(20_000)
            ending = LeaseHolder.isEnding(child)
        }
        #expect(ending)
        #expect(kill(pid_t(child), 0) == 0, "a zombie answers kill(pid, 0)")
        #expect(!UploadJournal.isRunning(child))
        #expect(UploadJournal.isRunning(Int64(shell.processIdentifier)))
    }
}
