/// Which files a walk takes, by glob patterns, as `--include` and `--exclude` are read by rsync
/// and rclone: a pattern without a slash matches a file's name; one with a slash matches the
/// end of its path below the folder named (for a file named itself, the path as given), from
/// any folder on, or the whole of it when the pattern starts with `/`. `*` and `?` stay within
/// a name, `**` crosses slashes, `[abc]`, `[a-z]` and `[!x]` match one character, `{a,b}` either.
/// Letters match either case (camera files are `IMG_0001.JPG`; `*.jpg` takes them). A file is
/// taken when it matches an include (or none is given) and no exclude.
public struct FileSelection: Sendable, Hashable {
    /// Patterns of the files to take; empty: every file.
    public var include: [String] { didSet { includes = include.map(Pattern.init) } }
    /// Patterns of the files to leave alone, even when an include matches them.
    public var exclude: [String] { didSet { excludes = exclude.map(Pattern.init) } }
    /// The patterns read once (cases folded, braces spelled out), not again for every file a walk finds.
    private var includes: [Pattern]
    private var excludes: [Pattern]

    /// A selection by these patterns.
    public init(include: [String] = [], exclude: [String] = []) {
        self.include = include
        self.exclude = exclude
        includes = include.map(Pattern.init)
        excludes = exclude.map(Pattern.init)
    }

    /// Every file.
    public static let everything = FileSelection()

    /// Whether this selection takes every file.
    public var takesEverything: Bool { include.isEmpty && exclude.isEmpty }

    /// Whether the file at `path` (below the folder named, or as given) is taken.
    public func takes(_ path: String) -> Bool {
        if takesEverything { return true }
        let path = Array(path.lowercased().unicodeScalars)
        let name = Array(path.split(separator: "/", omittingEmptySubsequences: false).last ?? [])
        func matches(_ pattern: Pattern) -> Bool { pattern.matches(path: path, name: name) }
        return (includes.isEmpty || includes.contains(where: matches)) && !excludes.contains(where: matches)
    }

    /// Whether an `--exclude` pattern names the file at `path` (below the folder named, or as given).
    public func leavesOut(_ path: String) -> Bool {
        guard !excludes.isEmpty else { return false }
        let path = Array(path.lowercased().unicodeScalars)
        let name = Array(path.split(separator: "/", omittingEmptySubsequences: false).last ?? [])
        return excludes.contains { $0.matches(path: path, name: name) }
    }

    /// One `--include` or `--exclude` pattern, read: its alternatives, each a glob with whether it
    /// is matched against the name alone or the path, and whether it is anchored at the top.
    private struct Pattern: Sendable, Hashable {
        struct Alternative: Sendable, Hashable {
            let pattern: [Unicode.Scalar]
            let onPath: Bool
            let anchored: Bool
        }
        let globs: [Alternative]

        init(_ text: String) {
            globs = FileSelection.alternatives(text.lowercased()).map { alternative in
                let pattern = Array(alternative.unicodeScalars)
                let anchored = pattern.first == "/"
                return Alternative(
                    pattern: anchored ? Array(pattern.dropFirst()) : pattern, onPath: pattern.contains("/"),
                    anchored: anchored)
            }
        }

        func matches(path: [Unicode.Scalar], name: [Unicode.Scalar]) -> Bool {
            globs.contains { glob in
                var matcher = Glob(pattern: glob.pattern)
                guard glob.onPath else { return matcher.matches(name) }
                // Anchored by a leading slash: the whole path; otherwise, as rsync reads it, the
                // path's end from any folder on (`100CANON/*` takes `DCIM/100CANON/x.jpg`).
                if matcher.matches(path) { return true }
                guard !glob.anchored else { return false }
                for (index, character) in path.enumerated() where character == "/" {
                    if matcher.matches(Array(path[(index + 1)...])) { return true }
                }
                return false
            }
        }
    }
}

extension FileSelection {
    /// A pattern's brace alternatives spelled out: `*.{jpg,heic}` is `*.jpg` and `*.heic`
    /// (nested braces too); a brace that is not closed is itself.
    static func alternatives(_ pattern: String) -> [String] {
        let characters = Array(pattern)
        guard let open = characters.firstIndex(of: "{") else { return [pattern] }
        var depth = 0
        var parts: [String] = []
        var start = open + 1
        for index in (open + 1)..<characters.count {
            switch characters[index] {
            case "{": depth += 1
            case "}" where depth > 0: depth -= 1
            case "," where depth == 0:
                parts.append(String(characters[start..<index]))
                start = index + 1
            case "}":
                parts.append(String(characters[start..<index]))
                let head = String(characters[..<open])
                let tail = String(characters[(index + 1)...])
                return parts.flatMap { part in alternatives(head + part + tail) }
            default: break
            }
        }
        return [pattern]
    }
}

/// One glob pattern matched against one path, remembering what it already tried so that
/// patterns with many stars stay linear in the path's length times the pattern's.
private struct Glob {
    let pattern: [Unicode.Scalar]
    private var tried: Set<Int> = []

    init(pattern: [Unicode.Scalar]) { self.pattern = pattern }

    mutating func matches(_ text: [Unicode.Scalar]) -> Bool {
        tried = []
        return match(0, text, 0)
    }

    private mutating func match(_ p: Int, _ text: [Unicode.Scalar], _ t: Int) -> Bool {
        if p == pattern.count { return t == text.count }
        let key = p * (text.count + 1) + t
        guard tried.insert(key).inserted else { return false }
        switch pattern[p] {
        case "*":
            let crosses = p + 1 < pattern.count && pattern[p + 1] == "*"
            let next = crosses ? p + 2 : p + 1
            // `**/` also matches no folder at all: `**/x.jpg` takes `x.jpg`.
            if crosses, next < pattern.count, pattern[next] == "/", match(next + 1, text, t) { return true }
            var position = t
            while true {
                if match(next, text, position) { return true }
                guard position < text.count, crosses || text[position] != "/" else { return false }
                position += 1
            }
        case "?":
            return t < text.count && text[t] != "/" && match(p + 1, text, t + 1)
        case "[":
            guard t < text.count, text[t] != "/", let (matched, end) = characterClass(at: p, text[t]) else {
                // A lone `[` is itself.
                return t < text.count && text[t] == "[" && match(p + 1, text, t + 1)
            }
            return matched && match(end, text, t + 1)
        case "\\" where p + 1 < pattern.count:
            return t < text.count && text[t] == pattern[p + 1] && match(p + 2, text, t + 1)
        default:
            return t < text.count && text[t] == pattern[p] && match(p + 1, text, t + 1)
        }
    }

    /// Whether `character` is in the class that starts at `start` (`[`), and where the pattern
    /// goes on after it; nil when the class is not closed.
    private func characterClass(at start: Int, _ character: Unicode.Scalar) -> (Bool, Int)? {
        var index = start + 1
        let negated = index < pattern.count && (pattern[index] == "!" || pattern[index] == "^")
        if negated { index += 1 }
        var found = false
        var first = true
        while index < pattern.count {
            let low = pattern[index]
            if low == "]" && !first { return (found != negated, index + 1) }
            first = false
            if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                if low.value <= character.value && character.value <= pattern[index + 2].value { found = true }
                index += 3
            } else {
                if low == character { found = true }
                index += 1
            }
        }
        return nil
    }
}
