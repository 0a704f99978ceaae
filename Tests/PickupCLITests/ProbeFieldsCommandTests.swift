import Foundation
import PickupTestSupport
import Testing

/// `pickup probe --fields` and `--format csv|tsv`: a header row, then a row a file.
@Suite("probe --fields and --format, end to end")
struct ProbeFieldsCommandTests {
    @Test("CSV and TSV give a header of the fields asked and a row a file, quoted as RFC 4180 says")
    func fieldsAndFormats() throws {
        let folder = try Temporary.folder("cli-fields")
        defer { Temporary.remove(folder) }
        let photo = folder + "/a, \"b\".jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: photo)
        let movie = try Fixtures.path(.movAppleKeys)
        let csv = try CLI.run(["probe", photo, movie, "--format", "csv", "--fields", "path,kind,width,make,duration"])
        #expect(csv.status == 0, "\(csv.errorText)")
        #expect(
            csv.outputText
                == "path,kind,width,make,duration\r\n"
                + "\"\(folder)/a, \"\"b\"\".jpg\",image,800,,\r\n"
                + "\(movie),video,320,Apple,1.0\r\n", "\(csv.outputText)")

        // --fields alone gives TSV, as exiftool -T; the names are --json's keys, in any order asked.
        let tsv = try CLI.run(["probe", movie, "--fields", "make,kind"])
        #expect(tsv.outputText == "make\tkind\nApple\tvideo\n", "\(tsv.outputText)")
        // Every field, by default, in --json's order.
        let all = try CLI.run(["probe", movie, "--format", "tsv"])
        let header = all.outputText.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasPrefix("path\tkind\tcontainer\tbytes\t"), "\(header)")
        #expect(all.outputText.split(separator: "\n").count == 2)
        // A format's name in either case, as --to's schemes.
        #expect(try CLI.run(["probe", movie, "--format", "TSV"]).outputText == all.outputText)

        // TSV marks a missing value with -, as exiftool -T does; CSV leaves the cell empty.
        let missing = try CLI.run(["probe", photo, "--fields", "path,kind,make"])
        #expect(missing.outputText == "path\tkind\tmake\n\(photo)\timage\t-\n", "\(missing.outputText)")

        // A file that cannot be probed keeps its row (its path only), so rows match the files
        // named; its error goes to standard error and the exit status says something failed.
        let text = folder + "/notes.jpg"
        try Data("plain text".utf8).write(to: URL(fileURLWithPath: text))
        let mixed = try CLI.run(["probe", text, movie, "--fields", "path,kind"])
        #expect(mixed.status == 1)
        #expect(mixed.outputText == "path\tkind\n\(text)\t-\n\(movie)\tvideo\n", "\(mixed.outputText)")
        #expect(mixed.errorText.contains("notes.jpg: the file holds plain text"), "\(mixed.errorText)")
        let mixedCSV = try CLI.run(["probe", text, movie, "--fields", "path,kind", "--format", "csv"])
        #expect(mixedCSV.outputText == "path,kind\r\n\(text),\r\n\(movie),video\r\n", "\(mixedCSV.outputText)")

        let wrong = try CLI.run(["probe", movie, "--fields", "kind,nosuch"])
        #expect(wrong.status == 2 && wrong.errorText.contains("no field 'nosuch'; choose among path, kind"))
        let format = try CLI.run(["probe", movie, "--format", "xml"])
        #expect(format.status == 2 && format.errorText.contains("--format takes csv or tsv"))
    }
}
