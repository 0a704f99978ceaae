import Pickup
import Testing

@Suite("The photo picker's selection and Live Photo access, decided in the core")
struct PickerPlanTests {
    @Test func aSinglePickNeverPreselects() {
        let plan = PickerSelectionPlan(limit: 1, preselected: ["a", "b"], ordered: false)
        #expect(plan.preselected.isEmpty)
        #expect(plan.limit == 1)
    }

    @Test func preselectionKeepsOrderDropsRepeatsAndFitsTheLimit() {
        #expect(
            PickerSelectionPlan(limit: 2, preselected: ["a", "a", "b", "c"], ordered: true).preselected == ["a", "b"])
        #expect(PickerSelectionPlan(limit: 0, preselected: ["c", "a", "c"], ordered: true).preselected == ["c", "a"])
    }

    @Test(arguments: [
        (LivePhotoAccess.Status.authorized, LivePhotoAccess.read),
        (.limited, .read),
        (.notDetermined, .ask),
        (.denied, .refused(.livePhotoNeedsLibraryAccess)),
        (.restricted, .refused(.livePhotoNeedsLibraryAccess)),
    ])
    func liveMovieAccess(status: LivePhotoAccess.Status, expected: LivePhotoAccess) {
        #expect(LivePhotoAccess(status) == expected)
    }

    @Test func theRefusalSaysWhatToDo() {
        #expect(PickProblem.livePhotoNeedsLibraryAccess.description.contains("Settings"))
    }
}
