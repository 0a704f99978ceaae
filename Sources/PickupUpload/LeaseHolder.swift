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

    /// Whether `/proc/PID/stat`'s text (Linux) says the process is ending: a zombie (`Z`, `X`)
    /// or exiting (`PF_EXITING`, 0x4, in its flags). `kill(pid, 0)` succeeds on such a process
    /// until its parent reaps it, which may be later than never for a child of a killed
    /// `timeout`, left to a container's first process: its upload would stay held until the
    /// lease ran out. Nil for text that is not such a line.
    static func isEnding(stat text: String) -> Bool? {
        // "PID (COMM) STATE PPID PGRP SESSION TTY TPGID FLAGS ...": the name may hold spaces
        // and parentheses, so the fields are counted from the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count >= 7, let state = fields[0].first, let flags = UInt64(fields[6]) else { return nil }
        return state == "Z" || state == "X" || flags & 0x4 != 0
    }

    /// Whether the process `pid` is ending, as its `/proc` entry says (false where there is none).
    static func isEnding(_ pid: Int64) -> Bool {
        #if os(Linux)
            // The whole entry (a process's name may hold a newline), at most a page.
            let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            return isEnding(stat: String(decoding: buffer.prefix(count), as: UTF8.self)) ?? false
        #else
            return false
        #endif
    }
}
