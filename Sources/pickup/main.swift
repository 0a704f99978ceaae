import PickupCommandLine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let status = await Tool.start(SystemArguments.all)
exit(status)
