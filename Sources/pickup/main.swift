#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let status = await Tool.start(Array(CommandLine.arguments.dropFirst()))
exit(status)
