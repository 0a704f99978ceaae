import Pickup

/// The connections an uploader's uploads share. Every upload being sent holds one (its
/// requests go one after another); an S3 upload's further parts in flight each take one
/// more, but only one no other upload is using. So one large video alone sends its parts
/// side by side, and when photos start beside it the video falls back to fewer parts in
/// flight as its parts arrive (within one part's time), leaving the connections to them.
/// An upload's own connection is never refused: how many files go at once is the queue's
/// choice (`--parallel`), so the count can pass the limit; the budget only decides the
/// parts beyond each one's first.
package final class ConnectionBudget: Sendable {
    /// The count (each upload's own connection and every extra part's) below which an extra
    /// part may take a connection. Not a ceiling: uploads' own connections can pass it.
    package let limit: Int
    private let inUse = LockedValue(0)

    /// A budget of `limit` connections (at least 1).
    package init(limit: Int) { self.limit = max(1, limit) }

    /// Connections held now.
    package var used: Int { inUse.current }

    /// An upload starts: it holds its own connection until `leave()`.
    package func enter() { inUse.withValue { $0 += 1 } }

    /// An upload ends: its own connection is free.
    package func leave() { inUse.withValue { $0 -= 1 } }

    /// Takes up to `wanted` connections no upload is using; returns how many it took.
    package func takeSpare(upTo wanted: Int) -> Int {
        inUse.withValue { used in
            let taken = max(0, min(wanted, limit - used))
            used += taken
            return taken
        }
    }

    /// Gives back `count` connections taken with `takeSpare`.
    package func giveBack(_ count: Int) {
        guard count > 0 else { return }
        inUse.withValue { $0 -= count }
    }
}

/// The connections one S3 upload holds beyond its own: one for each part in flight after
/// the first. Given back as its parts arrive, and all of them when it is let go of, so a
/// cancelled or failed upload cannot keep any.
final class PartConnections: Sendable {
    private let budget: ConnectionBudget
    private let held = LockedValue(0)

    init(budget: ConnectionBudget) { self.budget = budget }

    deinit { budget.giveBack(held.current) }

    /// How many parts may fly with `flying` in the air, up to `window`: the first needs no
    /// extra connection, each further one holds one. Takes what it needs or gives back what
    /// it no longer needs, and returns how many parts may be in flight.
    func parts(flying: Int, window: Int, left: Int) -> Int {
        held.withValue { held in
            let wanted = max(0, min(window, flying + left) - 1)
            if wanted > held {
                held += budget.takeSpare(upTo: wanted - held)
            }
            let needed = max(0, flying - 1)
            if held > max(needed, wanted) {
                budget.giveBack(held - max(needed, wanted))
                held = max(needed, wanted)
            }
            return held + 1
        }
    }

    /// Gives back what `flying` parts in the air no longer need.
    func settle(flying: Int) {
        held.withValue { held in
            let needed = max(0, flying - 1)
            if held > needed {
                budget.giveBack(held - needed)
                held = needed
            }
        }
    }
}
