import Foundation

/// Picks loopback ports that nothing listens on, checked with `bind`.
public enum FreePort {
    /// Whether 127.0.0.1:`port` can be bound now.
    public static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = Loopback.address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    /// A random port in `range` such that it and each of `offsets` from it are free.
    public static func pick(in range: ClosedRange<Int>, offsets: [Int] = [0]) -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: range)
            if offsets.allSatisfy({ isFree(port + $0) }) { return port }
        }
        return Int.random(in: range)
    }
}
