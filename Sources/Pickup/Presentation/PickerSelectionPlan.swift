/// What the photo picker is told about the selection, decided here so that Linux tests
/// reach it; `PickupUI` only copies it into `PHPickerConfiguration`.
public struct PickerSelectionPlan: Sendable, Hashable {
    /// How many items the person may pick (0: no limit, as Photos counts).
    public var limit: Int
    /// The items shown as already picked, each once. Apple's header: "should be an empty array
    /// if selectionLimit is 1 or photoLibrary is not specified"; with a limit of one, picking
    /// replaces the choice anyway. More than the limit are all kept: Apple's documentation of
    /// `preselectedAssetIdentifiers` says their number "can exceed your selection limit" (the
    /// picker's Done waits until the person deselects enough), where one left out would come
    /// back deselected.
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
            self.preselected = preselected.filter { seen.insert($0).inserted }
        }
    }

    /// Whether a picker that closes (`PHPickerViewController`), opened with this plan, was
    /// cancelled when it hands back `returning` results. With items preselected, its results are
    /// the whole selection whichever button closed it (Apple's documentation of
    /// `preselectedAssetIdentifiers`: "Results include all preselected identifiers when
    /// canceling the picker", and Done stays enabled when the person deselects everything), so
    /// nothing is a cancel; with nothing preselected, no result is one.
    public func isCancelled(returning count: Int) -> Bool { count == 0 && preselected.isEmpty }
}

/// How the photo picker behaves on screen: whether the selection reaches the app while the
/// picker is open, and whether its own Add and Cancel buttons show.
///
/// An inline picker (embedded in the app's screen) never closes, so its selection can only
/// reach the app continuously: inline implies continuous. The selection actions are hidden only
/// when the selection is continuous; a picker that delivers on "Add" keeps its buttons.
public struct PickerBehaviorPlan: Sendable, Hashable {
    /// Whether the selection updates while the picker is open (iOS 17 `.continuous`).
    public var continuous: Bool
    /// Whether the order badges show.
    public var ordered: Bool
    /// Whether the picker is embedded in the screen (iOS 17 `.inline` style).
    public var inline: Bool
    /// Whether the picker's Add and Cancel buttons are hidden.
    public var hidesSelectionActions: Bool

    /// The plan for the options asked; `modern` is whether the system has iOS 17's behaviours.
    public init(continuous: Bool, ordered: Bool, inline: Bool, modern: Bool) {
        self.ordered = ordered
        self.inline = modern && inline
        self.continuous = modern && (continuous || inline)
        hidesSelectionActions = self.inline && self.continuous
    }
}
