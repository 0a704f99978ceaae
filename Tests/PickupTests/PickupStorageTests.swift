import Pickup
import Testing

@Suite("Where Pickup's files live")
struct PickupStorageTests {
    @Test("the library and the journal share one folder")
    func oneFolder() {
        let storage = PickupStorage(
            root: "/var/mobile/Containers/Data/Application/X/Library/Application Support/Pickup")
        #expect(storage.library.hasSuffix("Application Support/Pickup/Library"))
        #expect(storage.journal.hasSuffix("Application Support/Pickup/uploads.sqlite"))
    }

    @Test(
        "off iPhone the state folder comes from the environment",
        arguments: [
            (["PICKUP_STATE_DIR": "/s", "XDG_STATE_HOME": "/x", "HOME": "/h"], "/s"),
            (["XDG_STATE_HOME": "/x", "HOME": "/h"], "/x/pickup"),
            (["HOME": "/h"], "/h/.local/state/pickup"),
            (["PICKUP_STATE_DIR": "", "HOME": "/h"], "/h/.local/state/pickup"),
        ])
    func stateFolder(environment: [String: String], expected: String) {
        #expect(PickupStorage.stateFolder(environment) == expected)
    }

    @Test("on Linux the standard place is not the documents folder")
    func standardIsState() {
        #expect(!PickupStorage.standard.root.contains("Documents"))
    }

    @Test("an App Group's storage is Apple's only: off Apple's systems there is none")
    func noAppGroupOnLinux() {
        #if !canImport(Darwin)
            #expect(PickupStorage.appGroup("group.com.example.photos") == nil)
        #endif
    }
}
