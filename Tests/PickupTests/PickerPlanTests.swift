import Pickup
import Testing

@Suite("The photo picker's selection, decided in the core")
struct PickerPlanTests {
    @Test func aSinglePickNeverPreselects() {
        let plan = PickerSelectionPlan(limit: 1, preselected: ["a", "b"], ordered: false)
        #expect(plan.preselected.isEmpty)
        #expect(plan.limit == 1)
    }

    @Test("preselection keeps the order, drops repeats, and keeps more than the limit (Apple allows it)")
    func preselectionKeepsOrderDropsRepeats() {
        // Apple's documentation of `preselectedAssetIdentifiers`: their number "can exceed your
        // selection limit"; one left out would come back from the picker deselected.
        #expect(
            PickerSelectionPlan(limit: 2, preselected: ["a", "a", "b", "c"], ordered: true).preselected == [
                "a", "b", "c",
            ])
        #expect(PickerSelectionPlan(limit: 0, preselected: ["c", "a", "c"], ordered: true).preselected == ["c", "a"])
    }

    @Test("no result is a cancel only when nothing was preselected")
    func cancelTold() {
        #expect(PickerSelectionPlan(limit: 1, preselected: ["a"], ordered: false).isCancelled(returning: 0))
        #expect(!PickerSelectionPlan(limit: 1, preselected: [], ordered: false).isCancelled(returning: 1))
        // Preselected items come back on Cancel; none back means the person deselected them all.
        #expect(!PickerSelectionPlan(limit: 5, preselected: ["a"], ordered: false).isCancelled(returning: 0))
        #expect(PickerSelectionPlan(limit: 5, preselected: [], ordered: false).isCancelled(returning: 0))
    }
}

@Suite("Picker behaviour")
struct PickerBehaviorPlanTests {
    @Test("an inline picker delivers continuously, so hiding its buttons never strands the person")
    func inlineImpliesContinuous() {
        let plan = PickerBehaviorPlan(continuous: false, ordered: true, inline: true, modern: true)
        #expect(plan.continuous)
        #expect(plan.hidesSelectionActions)
    }

    @Test("a sheet picker keeps its Add button")
    func sheetKeepsActions() {
        let plan = PickerBehaviorPlan(continuous: false, ordered: true, inline: false, modern: true)
        #expect(!plan.continuous)
        #expect(!plan.hidesSelectionActions)
    }

    @Test("before iOS 17 there is no inline style and no continuous selection")
    func beforeSeventeen() {
        let plan = PickerBehaviorPlan(continuous: true, ordered: false, inline: true, modern: false)
        #expect(!plan.continuous && !plan.inline && !plan.hidesSelectionActions)
    }
}

@Suite("Camera recording")
struct CameraRecordingPlanTests {
    @Test("720p is recorded at the camera's normal quality and exported to 1280x720, never as iFrame")
    func hd720() {
        let plan = CameraRecordingPlan(.hd1280x720)
        #expect(plan.recording == .high)
        #expect(plan.export == .p1280x720)
    }

    @Test("the plain qualities are recorded as they are, with no export")
    func plain() {
        #expect(CameraRecordingPlan(.medium).recording == .medium && CameraRecordingPlan(.medium).export == nil)
        #expect(CameraRecordingPlan(.vga640x480).export == nil)
    }
}

@Suite("Avatar crop")
struct SquareCropTests {
    @Test("a landscape photo is cut to its centred square at first")
    func centred() {
        let crop = SquareCrop(image: PixelSize(width: 4000, height: 3000))
        #expect(crop.rect == (500, 0, 3000))
    }

    @Test("dragging past the edge stops at the edge")
    func clamped() {
        var crop = SquareCrop(image: PixelSize(width: 4000, height: 3000))
        crop.drag(dx: 10_000, dy: 0, viewSide: 300)
        #expect(crop.rect == (0, 0, 3000))
    }

    @Test("zooming in keeps a smaller square inside the photo")
    func zoomed() {
        var crop = SquareCrop(image: PixelSize(width: 4000, height: 3000))
        crop.zoom(to: 2)
        crop.drag(dx: -10_000, dy: -10_000, viewSide: 300)
        #expect(crop.rect == (2500, 1500, 1500))
        crop.zoom(to: 0.1)
        #expect(crop.zoom == 1)
    }
}

@Suite("Decoding for a thumbnail")
struct DecodeSizeTests {
    @Test("a 12 MP photo for a 200-point square tile is decoded at 267 pixels, not whole")
    func twelveMegapixels() {
        let geometry = ThumbnailGeometry(
            source: PixelSize(width: 4032, height: 3024), orientation: .upright,
            target: PixelSize(width: 200, height: 200), mode: .fill)
        #expect(geometry.decodeMaxPixels == 267)
    }

    @Test("a picture smaller than the tile is decoded at its own size")
    func neverUp() {
        let geometry = ThumbnailGeometry(
            source: PixelSize(width: 100, height: 80), orientation: .upright,
            target: PixelSize(width: 400, height: 400), mode: .fit)
        #expect(geometry.decodeMaxPixels == 100)
    }
}
