import PickupUpload
import Testing

/// Which networks the background session may use, as `BackgroundUploads` sets them on its
/// `URLSessionConfiguration` (`allowsCellularAccess`, `allowsExpensiveNetworkAccess`,
/// `allowsConstrainedNetworkAccess`: NSURLSession.h:752-759, iPhoneOS 26.2).
@Suite("background network")
struct BackgroundNetworkTests {
    @Test("any network by default, as Apple's defaults; Low Data Mode and Wi-Fi only say what they leave out")
    func presets() {
        #expect(BackgroundNetwork() == .any)
        #expect(BackgroundNetwork.any == BackgroundNetwork(cellular: true, expensive: true, constrained: true))
        #expect(
            BackgroundNetwork.notInLowDataMode == BackgroundNetwork(cellular: true, expensive: true, constrained: false)
        )
        #expect(BackgroundNetwork.wifiOnly == BackgroundNetwork(cellular: false, expensive: false, constrained: false))
    }
}
