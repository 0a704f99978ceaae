import Pickup

/// Turns probed files into import requests: Live Photo stills and movies
/// joined into one item, the filter applied, the order and limit kept, and
/// files listed twice reported once.
public struct ImportPlan: Sendable {
    /// What to import, in order: one request an item.
    public var requests: [ImportRequest]
    /// Files left out, and why (listed twice).
    public var skipped: [(path: String, error: ImportError)]
    /// How many items the filter left out.
    public var filteredOut = 0
    /// How many items the filter took that the limit left out.
    public var pastLimit = 0

    /// A plan for probed files: Live Photos joined, `filter` applied, sorted by `order`, at most
    /// `limit` items the library does not hold yet (0: all). `held`: the sources the library
    /// already holds (by path, size and time); their items stay in the plan, already there, and
    /// do not count against the limit, so that a card is imported a batch at a time.
    public init(
        files: [(path: String, info: MediaInfo)], filter: MediaFilter? = nil, order: ImportOrder = .selected,
        limit: Int = 0, held: Set<String> = []
    ) {
        var seen: Set<String> = []
        var unique: [(path: String, info: MediaInfo)] = []
        var skipped: [(path: String, error: ImportError)] = []
        for file in files {
            if seen.contains(file.path) {
                skipped.append(
                    (file.path, ImportError(.duplicateSource, "this file is listed more than once", path: file.path)))
            } else {
                seen.insert(file.path)
                unique.append(file)
            }
        }
        // Only Live Photos' stills and movies can pair (a camera roll of plain photos copies none
        // of its facts for it).
        let halves = unique.filter { $0.info.livePhotoRole != nil }
        let pairs = LivePhotoPairing.pairs(in: halves.map { (item: $0.path, info: $0.info) })
        let movieOf = Dictionary(pairs.map { ($0.still, $0.movie) }, uniquingKeysWith: { first, _ in first })
        let pairedMovies = Set(pairs.map(\.movie))
        let movieDuration = Dictionary(
            halves.filter { pairedMovies.contains($0.path) }.map { ($0.path, $0.info.duration) },
            uniquingKeysWith: { first, _ in first })
        var requests: [ImportRequest] = []
        for file in unique where !pairedMovies.contains(file.path) {
            var request = ImportRequest(path: file.path, info: file.info, livePhotoMovie: movieOf[file.path])
            request.livePhotoMovieDuration = request.livePhotoMovie.flatMap { movieDuration[$0] ?? nil }
            if let filter, !filter.matches(request.info) {
                filteredOut += 1
                continue
            }
            requests.append(request)
        }
        requests = ImportPlan.sort(requests, by: order)
        if limit > 0 {
            var taken = 0
            requests = requests.filter { request in
                if held.contains(request.path) { return true }
                taken += 1
                return taken <= limit
            }
            pastLimit = max(0, taken - limit)
        }
        self.requests = requests
        self.skipped = skipped
    }

    /// Gives each request the `.AAE` file beside it of the same name (`IMG_0001.AAE` for
    /// `IMG_0001.HEIC`: the edits an iPhone made to it), taken from `candidates` (files that are
    /// not media, found beside the media); returns those used, each given to one request.
    public mutating func attachEdits(from candidates: [String]) -> Set<String> {
        let key = MediaNames.editsKey
        var edits: [String: String] = [:]
        for path in candidates where MediaNames.namedAsEdits(path) {
            edits[key(path)] = edits[key(path)] ?? path
        }
        var used: Set<String> = []
        guard !edits.isEmpty else { return used }
        for index in requests.indices {
            guard let path = edits[key(requests[index].path)], !used.contains(path) else { continue }
            requests[index].edits = path
            used.insert(path)
        }
        return used
    }

    static func sort(_ requests: [ImportRequest], by order: ImportOrder) -> [ImportRequest] {
        if order == .selected { return requests }
        let indexed = Array(requests.enumerated())
        func date(_ request: ImportRequest) -> Int? {
            guard let date = request.info.creationDate else { return nil }
            // A date with no zone is taken as UTC: close enough to order a camera roll.
            return date.secondsSince1970
                ?? MediaDate(
                    year: date.year, month: date.month, day: date.day, hour: date.hour, minute: date.minute,
                    second: date.second, zone: .utc
                ).secondsSince1970
        }
        switch order {
        case .selected:
            return requests
        case .newest, .oldest:
            return indexed.sorted { a, b in
                switch (date(a.element), date(b.element)) {
                case (let x?, let y?) where x != y: return order == .newest ? x > y : x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return a.offset < b.offset
                }
            }.map(\.element)
        case .name:
            return indexed.sorted { a, b in
                let comparison = NaturalOrder.compare(a.element.name, b.element.name)
                return comparison == 0 ? a.offset < b.offset : comparison < 0
            }.map(\.element)
        }
    }
}

/// Compares names as people read them: case-insensitively, runs of digits as numbers.
enum NaturalOrder {
    static func compare(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased().utf8), y = Array(b.lowercased().utf8)
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        var i = 0, j = 0
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                var ei = i, ej = j
                while ei < x.count, isDigit(x[ei]) { ei += 1 }
                while ej < y.count, isDigit(y[ej]) { ej += 1 }
                let nx = x[i..<ei].drop { $0 == 48 }, ny = y[j..<ej].drop { $0 == 48 }
                if nx.count != ny.count { return nx.count < ny.count ? -1 : 1 }
                if !nx.elementsEqual(ny) { return nx.lexicographicallyPrecedes(ny) ? -1 : 1 }
                i = ei
                j = ej
            } else {
                if x[i] != y[j] { return x[i] < y[j] ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        let restX = x.count - i, restY = y.count - j
        return restX == restY ? 0 : (restX < restY ? -1 : 1)
    }
}
