import PickupImport
import Testing

/// `--include` and `--exclude` patterns, read as rsync's and rclone's (their manuals' "FILTER
/// RULES" and "Pattern matching" sections): no slash, the name; a slash, the path below the
/// folder named; `*` within a name, `**` across folders.
@Suite("File selection by glob")
struct FileSelectionTests {
    @Test("a pattern without a slash matches the name, in either case")
    func names() {
        let jpegs = FileSelection(include: ["*.jpg"])
        #expect(jpegs.takes("IMG_0001.JPG"))
        #expect(jpegs.takes("2024/05/img_0002.jpg"))
        #expect(!jpegs.takes("IMG_0001.HEIC"))
        #expect(!jpegs.takes("IMG_0001.jpg.txt"))
        #expect(FileSelection(include: ["IMG_00?1.*"]).takes("sub/IMG_0031.MOV"))
        #expect(!FileSelection(include: ["IMG_00?1.*"]).takes("IMG_001.MOV"))
    }

    @Test("a pattern with a slash matches the path; * stays in a folder, ** crosses them")
    func paths() {
        #expect(FileSelection(include: ["2024/*"]).takes("2024/a.jpg"))
        #expect(FileSelection(include: ["100CANON/*"]).takes("DCIM/100CANON/a.jpg"), "unanchored: from any folder on")
        #expect(!FileSelection(include: ["/100CANON/*"]).takes("DCIM/100CANON/a.jpg"), "anchored: the whole path")
        #expect(!FileSelection(include: ["ANON/*"]).takes("DCIM/100CANON/a.jpg"), "only from a folder's start")
        #expect(!FileSelection(include: ["2024/*"]).takes("2024/05/a.jpg"))
        #expect(FileSelection(include: ["2024/**"]).takes("2024/05/a.jpg"))
        #expect(!FileSelection(include: ["2024/**"]).takes("2023/05/a.jpg"))
        #expect(FileSelection(include: ["**/thumbs/*"]).takes("thumbs/a.jpg"), "**/ also stands for no folder")
        #expect(FileSelection(include: ["**/thumbs/*"]).takes("a/b/thumbs/c.jpg"))
        #expect(FileSelection(include: ["/2024/*.jpg"]).takes("2024/x.jpg"), "a leading slash anchors at the top")
    }

    @Test("classes, escapes and a lone bracket")
    func classes() {
        #expect(FileSelection(include: ["IMG_[0-4]*"]).takes("IMG_3.JPG"))
        #expect(!FileSelection(include: ["IMG_[0-4]*"]).takes("IMG_7.JPG"))
        #expect(FileSelection(include: ["IMG_[!0-4]*"]).takes("IMG_7.JPG"))
        #expect(FileSelection(include: ["a\\*b"]).takes("a*b"))
        #expect(!FileSelection(include: ["a\\*b"]).takes("axb"))
        #expect(FileSelection(include: ["[x"]).takes("[x"))
    }

    @Test("braces give alternatives")
    func braces() {
        let selection = FileSelection(include: ["*.{jpg,heic,mov}"])
        #expect(selection.takes("a.JPG") && selection.takes("b.heic") && selection.takes("c.mov"))
        #expect(!selection.takes("d.png"))
        #expect(FileSelection(include: ["{DCIM/{100,101}*,Camera}/*.jpg"]).takes("card/DCIM/101APPLE/x.jpg"))
        #expect(FileSelection(include: ["a{b"]).takes("a{b"), "an open brace is itself")
    }

    @Test("an exclude wins over an include; no pattern takes everything")
    func excludes() {
        let selection = FileSelection(include: ["*.jpg", "*.mov"], exclude: ["*/.thumbnails/*", "IMG_9*"])
        #expect(selection.takes("a/IMG_1.JPG"))
        #expect(selection.takes("a/IMG_1.MOV"))
        #expect(!selection.takes("a/.thumbnails/IMG_1.JPG"))
        #expect(!selection.takes("IMG_9000.JPG"))
        #expect(!selection.takes("notes.txt"))
        #expect(FileSelection.everything.takes("anything/at/all.bin"))
    }

    @Test("many stars against a long name end quickly")
    func manyStars() {
        let pattern = String(repeating: "*a", count: 30) + "b"
        let name = String(repeating: "a", count: 200)
        #expect(!FileSelection(include: [pattern]).takes(name))
    }
}
