// Stand-in for Apple's CoreGraphics (test-only; see scripts/check-apple-ui.sh). CGFloat, CGSize,
// CGPoint and CGRect come from swift-corelibs-foundation on Linux.
@_exported import Foundation

public final class CGImage: @unchecked Sendable {
    public var width: Int { fatalError() }
    public var height: Int { fatalError() }
}
