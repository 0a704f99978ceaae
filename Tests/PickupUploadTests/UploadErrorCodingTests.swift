import Foundation
import PickupUpload
import Testing

/// An upload's error as an app may keep it (JSON, with its record): an encoding made before a
/// flag was added still decodes, the flag false.
@Suite("UploadError coding")
struct UploadErrorCodingTests {
    @Test("an error encoded without the later flags decodes with them false; one with them keeps them")
    func olderEncodingDecodes() throws {
        let older = #"{"code":"network","message":"cannot connect","status":null}"#
        let error = try JSONDecoder().decode(UploadError.self, from: Data(older.utf8))
        #expect(error.code == .network && error.message == "cannot connect")
        #expect(!error.unreachable && !error.notAJournal && !error.outsideSharedContainer && error.targetProblem == nil)

        var flagged = UploadError.unreachable("no route")
        flagged.targetProblem = .noTusEndpoint
        let again = try JSONDecoder().decode(UploadError.self, from: try JSONEncoder().encode(flagged))
        #expect(again == flagged && again.unreachable && again.targetProblem == .noTusEndpoint)
    }
}
