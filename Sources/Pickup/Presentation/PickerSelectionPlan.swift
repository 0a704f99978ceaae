/// What the photo picker is told about the selection, decided here so that Linux tests
/// reach it; `PickupUI` only copies it into `PHPickerConfiguration`.
public struct PickerSelectionPlan: Sendable, Hashable {
    /// How many items the person may pick (0: no limit, as Photos counts).
    public var limit: Int
    /// The items shown as already picked. Apple's header: "should be an empty array if
    /// selectionLimit is 1 or photoLibrary is not specified". With a limit of one, picking
    /// replaces the choice anyway, so nothing is lost.
    public var preselected: [String]
    /// Whether order badges are shown.
    public var ordered: Bool

    /// The plan for a limit (0: none), the items already picked, and whether the order counts.
    public init(limit: Int, preselected: [String], ordered: Bool) {
        self.limit = max(0, limit)
        self.ordered = ordered
        if self.limit == 1 {
            self.preselected = []
        } else {
            var seen = Set<String>()
            let unique = preselected.filter { seen.insert($0).inserted }
            self.preselected = self.limit == 0 ? unique : Array(unique.prefix(self.limit))
        }
    }
}
