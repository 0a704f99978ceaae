/// The items a person has picked, in the order they picked them, with the
/// policy's limit enforced. A plain value: the picker UI and the CLI both
/// drive it and show what it says.
public struct Selection<ID: Hashable & Sendable>: Sendable {
    /// Why an item could not be added.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The policy's limit is reached; remove an item first.
        case limitReached(limit: Int)
        /// The item is already selected.
        case alreadySelected
        /// The item does not match the picker's filter.
        case filteredOut

        public var description: String {
            switch self {
            case .limitReached(let limit):
                return "You can select up to \(limit) item\(limit == 1 ? "" : "s"). Remove one to choose another."
            case .alreadySelected: return "This item is already selected."
            case .filteredOut: return "This item is not the kind this picker accepts."
            }
        }
    }

    /// The rules this selection keeps: limit, order, items already picked.
    public let policy: SelectionPolicy<ID>
    /// The selected items, in selection order.
    public private(set) var items: [ID]

    /// A selection that starts with the policy's preselected items (once each, up to the limit).
    public init(policy: SelectionPolicy<ID>) {
        self.policy = policy
        var seen: Set<ID> = []
        var items: [ID] = []
        for id in policy.preselected where !seen.contains(id) {
            seen.insert(id)
            items.append(id)
        }
        if policy.limit > 0 { items = Array(items.prefix(policy.limit)) }
        self.items = items
    }

    /// How many items are selected.
    public var count: Int { items.count }
    /// Whether the limit is reached (never, without a limit).
    public var isFull: Bool { policy.limit > 0 && items.count >= policy.limit }
    /// Whether an item is selected.
    public func contains(_ id: ID) -> Bool { items.contains(id) }

    /// The 1-based number to show on an item's badge, when the order matters.
    public func badge(for id: ID) -> Int? {
        guard policy.ordered, let index = items.firstIndex(of: id) else { return nil }
        return index + 1
    }

    /// Adds an item at the end. With a limit of 1 a new pick replaces the old one,
    /// as single-selection pickers do.
    public mutating func add(_ id: ID) throws(Refusal) {
        guard !contains(id) else { throw .alreadySelected }
        if policy.limit == 1, items.count == 1 {
            items = [id]
            return
        }
        guard !isFull else { throw .limitReached(limit: policy.limit) }
        items.append(id)
    }

    /// Adds an item if `matches` is true, else refuses it as filtered out.
    public mutating func add(_ id: ID, matches: Bool) throws(Refusal) {
        guard matches else { throw .filteredOut }
        try add(id)
    }

    /// Removes an item; returns whether it was selected.
    @discardableResult
    public mutating func remove(_ id: ID) -> Bool {
        guard let index = items.firstIndex(of: id) else { return false }
        items.remove(at: index)
        return true
    }

    /// Selects an unselected item or deselects a selected one.
    public mutating func toggle(_ id: ID) throws(Refusal) {
        if !remove(id) { try add(id) }
    }

    /// Moves the item at `from` to `to` (indices in `items`); out-of-range moves do nothing.
    public mutating func move(from: Int, to: Int) {
        guard items.indices.contains(from), items.indices.contains(to), from != to else { return }
        let id = items.remove(at: from)
        items.insert(id, at: to)
    }
}
