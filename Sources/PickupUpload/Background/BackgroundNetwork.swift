/// Which networks the background session may send on: `URLSessionConfiguration`'s
/// `allowsCellularAccess`, `allowsExpensiveNetworkAccess` and `allowsConstrainedNetworkAccess`
/// (NSURLSession.h:752-759 in the iOS 26.2 SDK), all allowed unless said otherwise, as Apple's
/// own defaults are. A task waits, unsent, while only a network it may not use is there, and
/// goes on when one it may use comes (the system decides; nothing fails).
public struct BackgroundNetwork: Sendable, Hashable {
    /// Cellular at all.
    public var cellular: Bool
    /// A network the system counts as expensive (cellular, a personal hotspot).
    public var expensive: Bool
    /// A network in Low Data Mode.
    public var constrained: Bool

    /// Which networks the session may use.
    public init(cellular: Bool = true, expensive: Bool = true, constrained: Bool = true) {
        self.cellular = cellular
        self.expensive = expensive
        self.constrained = constrained
    }

    /// Any network, as Apple's defaults are.
    public static let any = BackgroundNetwork()
    /// Not in Low Data Mode: a person who turned it on waits for another network, or for the
    /// foreground, where the app decides.
    public static let notInLowDataMode = BackgroundNetwork(constrained: false)
    /// Wi-Fi and wired only: no cellular, no hotspot, and not in Low Data Mode.
    public static let wifiOnly = BackgroundNetwork(cellular: false, expensive: false, constrained: false)
}
