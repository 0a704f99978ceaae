import Pickup
import PickupCommandLine
import PickupImport

/// `pickup library DIR list`.
extension LibraryJob {
    /// How many items a page of the listing holds. In the import order each page is printed and
    /// let go before the next is read, so a library of any size is listed in one page's memory.
    static let listPage = 5_000

    /// Every item, then the count and the bytes. Another order than the import's needs every
    /// item before the first line.
    func list(_ catalog: ImportCatalog) async throws(ImportError) {
        var count = 0
        var bytes: Int64 = 0
        if !json { Console.raw(ItemTable.listHeader()) }
        func print(_ items: [ImportedItem]) {
            count += items.count
            bytes += items.reduce(Int64(0)) { $0 + $1.files.reduce(0) { $0 + $1.size } }
            if json {
                Console.raw(items.map { ItemJSON.object($0).text + "\n" }.joined())
            } else {
                Console.raw(items.map { ItemTable.listRow($0, imported: LibraryJob.date($0.importedAt)) }.joined())
            }
        }
        if case .imported = order {
            var page = try await catalog.items(limit: Self.listPage)
            print(page)
            while page.count == Self.listPage, let last = page.last {
                page = try await catalog.items(after: last, limit: Self.listPage)
                print(page)
            }
        } else {
            print(LibraryJob.sorted(try await catalog.items(), by: order))
        }
        if !json { Console.raw("\n\(count) item\(count == 1 ? "" : "s"), \(Text.byteCount(bytes)).\n") }
    }
}
