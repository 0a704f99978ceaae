#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// The text of an `errno` value.
enum SystemError {
    static func text(_ code: Int32) -> String {
        guard let pointer = strerror(code) else { return "error \(code)" }
        return String(cString: pointer)
    }
}
