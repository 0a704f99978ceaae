/// The rules of a picker session, as `PHPickerConfiguration` states them:
/// how many items, whether their order matters, which are already chosen.
public struct SelectionPolicy<ID: Hashable & Sendable>: Sendable {
    /// The most items that may be selected; 0 means no limit.
    public var limit: Int
    /// Whether the order of selection matters (numbered badges, delivery order).
    public var ordered: Bool
    /// Items selected when the session opens (kept, not loaded again).
    public var preselected: [ID]

    /// A policy of `limit` items (0: no limit), ordered or not, starting with `preselected`.
    public init(limit: Int = 1, ordered: Bool = false, preselected: [ID] = []) {
        self.limit = max(0, limit)
        self.ordered = ordered
        self.preselected = preselected
    }
}
