import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kernel's own watch on each connection: it knows what Pickup cannot see from above,
/// whether the bytes handed to it were acknowledged.
///
/// - `TCP_USER_TIMEOUT`: sent bytes that stay unacknowledged for `seconds` (no ACK, or a
///   receive window closed that long) end the connection. A slow link that still moves
///   acknowledges something every round trip, so it is never cut.
/// - TCP keepalive: a connection that waits for an answer, with everything acknowledged,
///   probes the other side after `seconds / 2` of quiet; a side that no longer answers ends
///   it after `seconds`. A server that takes long to answer still acknowledges the probes.
///
/// This catches the silence `StallRule` cannot judge: a body handed whole to the kernel
/// (a small chunk, a large send buffer) whose link then goes silent, which the pace of the
/// body can no longer show and which would otherwise wait for the ceiling.
enum DeadLinkWatch {
    /// Sets the options on a freshly made connection. Options the system lacks are skipped:
    /// the pace rule and the ceiling still apply.
    static func arm(_ channel: any Channel, seconds: Double) -> EventLoopFuture<Void> {
        let whole = Int(max(1, seconds.rounded()))
        var options: [(ChannelOptions.Types.SocketOption, Int)] = [(.socketOption(.so_keepalive), 1)]
        #if os(Linux)
            options += [
                (.tcpOption(.init(rawValue: Int32(TCP_USER_TIMEOUT))), Int(seconds * 1000)),
                (.tcpOption(.init(rawValue: Int32(TCP_KEEPIDLE))), max(1, whole / 2)),
                (.tcpOption(.init(rawValue: Int32(TCP_KEEPINTVL))), 1),
                (.tcpOption(.init(rawValue: Int32(TCP_KEEPCNT))), max(1, whole - whole / 2)),
            ]
        #endif
        var done = channel.eventLoop.makeSucceededVoidFuture()
        for (option, value) in options {
            done = done.flatMap {
                channel.setOption(option, value: value).recover { _ in }
            }
        }
        return done
    }
}
