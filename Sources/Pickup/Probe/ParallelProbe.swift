#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Probes many files on all cores; results come back in the order given.
public enum ParallelProbe {
    /// The cores this machine has online.
    public static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// What each file is, probed on all cores (eight at most), in the order given.
    public static func probe(_ paths: [String]) async -> [Result<MediaInfo, ProbeError>] {
        let workers = max(1, min(cores, 8, paths.count))
        return await withTaskGroup(of: [(Int, Result<MediaInfo, ProbeError>)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let probe = MediaProbe()
                    var part: [(Int, Result<MediaInfo, ProbeError>)] = []
                    for index in stride(from: worker, to: paths.count, by: workers) {
                        do throws(ProbeError) {
                            part.append((index, .success(try probe.probe(path: paths[index]))))
                        } catch {
                            part.append((index, .failure(error)))
                        }
                    }
                    return part
                }
            }
            var results = [Result<MediaInfo, ProbeError>?](repeating: nil, count: paths.count)
            for await part in group {
                for (index, result) in part { results[index] = result }
            }
            return results.map { $0 ?? .failure(ProbeError(.unreadable, "not probed")) }
        }
    }
}
