import Foundation
import Observation
import Pickup

/// The picked items, following the picker's selection: what is selected, in the person's
/// order, what has loaded, what is loading (with iCloud progress), and what failed.
///
/// - The selection decides: an item the person deselected or removed is dropped and its load
///   cancelled; a load that finishes after that is thrown away, never put back. A copy this
///   pick made goes with it; an item the library held before stays (with a movie this pick added
///   to it: a Live Photo whose still it held alone is completed, `ImportResult.completed`).
/// - Nothing loads twice: an item loading or loaded stays as it is when the selection changes.
/// - Each item is delivered when it is done (nine photos never wait behind one iCloud video);
///   ``ready`` and ``keys`` keep the selection's order, for the grid and for uploads.
/// - A preselected item (Photos hands nothing over for it: `PHPicker.h`) is never loaded; it
///   keeps what ``restore(_:)`` gave it, or is left out.
/// - A failed item can be loaded again with ``retry(_:)``.
/// - An item is known by its photo-library identifier; one without (a picker not given the
///   library) by its ``PickedItemSource/selectionValue``, so that deselecting one never leaves
///   another's file in its place. Where nothing tells such items apart, each ``follow(_:)``
///   loads them again under new keys: slower, never another item's file.
/// - Items handed to the app with ``take()`` (to upload) are the app's: deselected afterwards,
///   they leave the selection but their copies stay, and they are not handed over twice.
///
/// `PickupUI`'s `PickedItemLoader` is this type over `PhotosPickerItem`.
@available(iOS 17.0, macOS 14.0, *)
@MainActor
@Observable
public final class PickedItems<Source: PickedItemSource> {
    /// The selected items' keys, in selection order (preselected items with nothing to show left out).
    public private(set) var keys: [String] = []
    /// Each selected item's state.
    public private(set) var states: [String: PickedItemTile<String>.State] = [:]
    /// The items loaded, by key.
    public private(set) var items: [String: PickedItem] = [:]

    @ObservationIgnored private var sources: [String: Source] = [:]
    @ObservationIgnored private var running: [String: Running] = [:]
    @ObservationIgnored private var waiting: [String] = []
    @ObservationIgnored private var generation = 0
    /// The keys of the items without an identifier, by their selection value.
    @ObservationIgnored private var keyByValue: [AnyHashable: String] = [:]
    @ObservationIgnored private var minted = 0
    /// The keys of the items ``take()`` handed over.
    public private(set) var taken: Set<String> = []
    /// The keys of the items ``restore(_:)`` gave: an earlier session's, whose copies this one
    /// never removes (an upload begun then may read them).
    @ObservationIgnored private var restoredKeys: Set<String> = []
    /// How many items load at once.
    public let concurrency: Int
    /// How each item is loaded.
    public let loading: PickedItemLoading

    private struct Running {
        let generation: Int
        let task: Task<Void, Never>
    }

    /// A model that loads `concurrency` items at once, as `loading` says.
    public init(loading: PickedItemLoading, concurrency: Int = 3) {
        self.loading = loading
        self.concurrency = max(1, concurrency)
    }

    /// The loaded items in selection order: what to show (to upload them, ``take()``).
    public var ready: [PickedItem] { keys.compactMap { items[$0] } }

    /// The loaded items ``take()`` has not handed over yet, in selection order.
    public var notTaken: [PickedItem] { keys.filter { !taken.contains($0) }.compactMap { items[$0] } }

    /// Hands the loaded items not handed over before to the app (to upload them), in selection
    /// order. From now on each is the app's: deselected or removed later, it leaves the selection
    /// but its copy stays in the library (an upload may be reading it; the app removes it when it
    /// is done with it), and a second `take()` does not give it again.
    public func take() -> [PickedItem] {
        let handed = notTaken
        taken.formUnion(handed.map(\.key))
        return handed
    }

    /// The selection's tiles for a grid, in the person's order: kind and Live Photo badge (known
    /// from the content types before the item loads), duration once loaded, order badges when
    /// `ordered`, and each item's state.
    public func tiles(ordered: Bool = true) -> [PickedItemTile<String>] {
        keys.enumerated().map { index, key in
            let item = items[key]
            let offered = sources[key]?.kind
            let kind: MediaKind = item?.info?.kind ?? (offered == .movie ? .video : .image)
            return PickedItemTile(
                id: key, info: item?.info, kind: kind,
                isLivePhoto: item?.imported?.isLivePhoto ?? (offered == .livePhoto),
                orderBadge: ordered ? index + 1 : nil,
                count: keys.count, state: states[key] ?? .loading(fraction: nil))
        }
    }

    /// The item the person picked at `key`, once loaded (the one to show or play).
    public func item(_ key: String?) -> PickedItem? { key.flatMap { items[$0] } }

    /// The file the tile at `key` shows a thumbnail of, once its item is loaded
    /// (``PickedItem/thumbnailFile(in:)``); nil while loading, and for audio or an unprobed file.
    public func thumbnailFile(_ key: String) -> String? {
        guard let item = items[key], let library = try? loading.importer.session() else { return nil }
        return item.thumbnailFile(in: library)
    }

    /// The key the last ``follow(_:)`` gave `source` (to remove it from the picker's selection
    /// when its tile is removed): its identifier, or the key of its selection value; nil when
    /// nothing tells it apart.
    public func key(of source: Source) -> String? {
        source.identifier ?? source.selectionValue.flatMap { keyByValue[$0] }
    }

    /// Follows the picker's selection (call it from `onChange` of the binding, and once at start).
    public func follow(_ selection: [Source]) {
        var order: [String] = []
        var selected: [String: Source] = [:]
        for (source, key) in zip(selection, keys(for: selection)) {
            guard selected[key] == nil else { continue }
            // Known items stay as they are (loaded, loading, waiting their turn, or failed and
            // ready to try again with the source they came with); an empty one is not loadable.
            if source.kind == .empty, states[key] == nil { continue }
            selected[key] = source
            order.append(key)
        }
        for key in keys where selected[key] == nil { drop(key) }
        keys = order
        for key in order where states[key] == nil {
            sources[key] = selected[key]
            states[key] = .loading(fraction: nil)
            waiting.append(key)
        }
        let place = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        waiting.sort { (place[$0] ?? 0) < (place[$1] ?? 0) }
        startWaiting()
    }

    /// Follows what a picker that closes handed back (`PHPickerViewController`), opened with
    /// `plan`'s preselected items (this model's ``keys``): its results are the whole selection,
    /// the items still selected among them with empty providers (`PHPicker.h`). Nothing comes
    /// back from a picker opened with nothing preselected when the person cancels it (with a
    /// limit of one the picker preselects nothing): the selection stays as it is.
    ///
    /// An item that failed and is picked again comes with a provider of its own (the person
    /// deselected it and picked it anew, or picked it again with a limit of one): it loads again
    /// with that one, not with the provider of an earlier presentation. An item the picker does
    /// not hand back, even on Cancel (an asset deleted meanwhile, or one the picker's filter no
    /// longer shows: Apple does not say), leaves the selection, its copy with it unless taken.
    public func follow(returned results: [Source], opened plan: PickerSelectionPlan) {
        guard !plan.isCancelled(returning: results.count) else { return }
        follow(results)
        for source in results where source.kind != .empty {
            guard let key = source.identifier, case .failed = states[key], running[key] == nil else { continue }
            sources[key] = source
            retry(key)
        }
    }

    /// Loads a failed item again (the tile's "Try Again").
    public func retry(_ key: String) {
        guard case .failed = states[key], sources[key] != nil, running[key] == nil else { return }
        states[key] = .loading(fraction: nil)
        waiting.append(key)
        startWaiting()
    }

    /// Removes an item the person removed from the grid (remove it from the picker's
    /// selection too: the next ``follow(_:)`` must not bring it back).
    public func remove(_ key: String) {
        drop(key)
        keys.removeAll { $0 == key }
    }

    /// Gives items loaded in an earlier session, shown for preselected items (by key). Their
    /// copies are the app's: deselected, an item leaves the selection and its copy stays.
    public func restore(_ restored: [PickedItem]) {
        for item in restored where items[item.key] == nil {
            items[item.key] = item
            states[item.key] = .ready
            restoredKeys.insert(item.key)
        }
    }

    /// Stops every load (the screen goes away); each stopped item can be tried again.
    public func cancelAll() {
        for key in Array(running.keys) + waiting {
            running.removeValue(forKey: key)?.task.cancel()
            states[key] = .failed(message: PickFailure.stopped)
        }
        waiting.removeAll()
    }

    private func drop(_ key: String) {
        running.removeValue(forKey: key)?.task.cancel()
        waiting.removeAll { $0 == key }
        states[key] = nil
        let handed = taken.remove(key) != nil
        let earlier = restoredKeys.remove(key) != nil
        if let item = items.removeValue(forKey: key), !handed, !earlier { discard(item) }
        sources[key] = nil
    }

    /// Each source's key: its identifier; without one, the key its selection value had in the
    /// last selection, or a new one. Where values do not tell the items without identifier apart
    /// (none given, or two alike), they all get new keys: they load again, and no item gets
    /// another's file (the same kinds in the same places may be other items).
    private func keys(for selection: [Source]) -> [String] {
        let values = selection.map { $0.identifier == nil ? $0.selectionValue : nil }
        let untoldCount = selection.filter { $0.identifier == nil }.count
        let told = values.compactMap { $0 }
        if told.count == untoldCount, Set(told).count == told.count {
            var next: [AnyHashable: String] = [:]
            let keys = zip(selection, values).map { source, value -> String in
                guard source.identifier == nil, let value else { return source.identifier ?? mint() }
                let key = keyByValue[value] ?? mint()
                next[value] = key
                return key
            }
            keyByValue = next
            return keys
        }
        keyByValue = [:]
        return selection.map { $0.identifier ?? mint() }
    }

    /// A key for an item without an identifier, never given before (a local identifier never
    /// begins with `#`).
    private func mint() -> String {
        minted += 1
        return "#\(minted)"
    }

    private func startWaiting() {
        while running.count < concurrency, !waiting.isEmpty {
            let key = waiting.removeFirst()
            guard let source = sources[key] else { continue }
            generation += 1
            let mine = generation
            let loading = self.loading
            // The task holds the model until its load ends; a deselected item's load is cancelled.
            let task = Task {
                let result = await loading.load(source, key: key) { fraction in
                    Task { @MainActor in self.progress(key, mine, fraction) }
                }
                self.finish(key, mine, result)
            }
            running[key] = Running(generation: mine, task: task)
        }
    }

    private func progress(_ key: String, _ mine: Int, _ fraction: Double) {
        guard running[key]?.generation == mine, case .loading = states[key] else { return }
        states[key] = .loading(fraction: min(1, max(0, fraction)))
    }

    private func finish(_ key: String, _ mine: Int, _ result: Result<PickedItem, PickFailure>) {
        guard running[key]?.generation == mine else {
            // Deselected (or removed) while it loaded: nothing of it stays.
            if case .success(let item) = result { discard(item) }
            return
        }
        running[key] = nil
        switch result {
        case .success(let item):
            items[key] = item
            states[key] = .ready
        case .failure(let failure):
            states[key] = .failed(message: failure.message)
        }
        startWaiting()
    }

    /// What a deselected item, or a load finished too late, leaves: its copy goes when this pick
    /// made it (an unprobed file, or an item new to the library); an item the library held
    /// before (a still this pick completed with its movie among them, the movie kept), or that
    /// another selected item shares, stays.
    private func discard(_ item: PickedItem) {
        switch item.stored {
        case .unprobed(let file):
            try? FileManager.default.removeItem(atPath: (file.path as NSString).deletingLastPathComponent)
        case .imported(let imported):
            guard item.isNew, !items.values.contains(where: { $0.imported?.id == imported.id }) else { return }
            let importer = loading.importer
            Task { _ = try? await importer.session().remove(imported) }
        }
    }
}
