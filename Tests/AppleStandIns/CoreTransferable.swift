// Stand-in for Apple's CoreTransferable (test-only; see scripts/check-apple-ui.sh).
import Foundation
import UniformTypeIdentifiers

public protocol TransferRepresentation<Item>: Sendable {
    associatedtype Item: Transferable
}

public protocol Transferable {
    associatedtype Representation: TransferRepresentation
    @TransferRepresentationBuilder<Self> static var transferRepresentation: Representation { get }
}

@resultBuilder
public struct TransferRepresentationBuilder<Item: Transferable> {
    public static func buildBlock<Content: TransferRepresentation>(_ content: Content) -> Content
    where Content.Item == Item { content }
}

public struct ReceivedTransferredFile {
    public var file: URL { fatalError() }
    public var isOriginalFile: Bool { fatalError() }
}

public struct SentTransferredFile {
    public init(_ file: URL, allowAccessingOriginalFile: Bool = false) { fatalError() }
}

public struct FileRepresentation<Item: Transferable>: TransferRepresentation {
    public init(
        contentType: UTType, shouldAttemptToOpenInPlace: Bool = false,
        exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile,
        importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item
    ) { fatalError() }
    public init(
        importedContentType: UTType, shouldAttemptToOpenInPlace: Bool = false,
        importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item
    ) { fatalError() }
}
