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
        let json = json
        if !json { Console.raw(ItemTable.listHeader()) }
        let totals: (count: Int, bytes: Int64)
        if case .imported = order {
            totals = try await catalog.readPages(of: Self.listPage, into: (0, 0)) { totals, page in
                LibraryJob.write(page, json: json, adding: &totals)
            }
        } else {
            var all = (count: 0, bytes: Int64(0))
            LibraryJob.write(LibraryJob.sorted(try await catalog.items(), by: order), json: json, adding: &all)
            totals = all
        }
        let count = totals.count
        if !json { Console.raw("\n\(count) item\(count == 1 ? "" : "s"), \(Text.byteCount(totals.bytes)).\n") }
    }

    /// Prints `items`, a line each, and adds them to `totals`.
    static func write(_ items: [ImportedItem], json: Bool, adding totals: inout (count: Int, bytes: Int64)) {
        totals.count += items.count
        totals.bytes += items.reduce(Int64(0)) { $0 + ItemTable.bytes($1) }
        if json {
            Console.raw(items.map { ItemJSON.object($0).text + "\n" }.joined())
        } else {
            Console.raw(items.map { ItemTable.listRow($0, imported: LibraryJob.date($0.importedAt)) }.joined())
        }
    }
}
