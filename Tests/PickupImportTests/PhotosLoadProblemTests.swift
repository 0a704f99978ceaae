import PickupImport
import Testing

/// What a load that Photos failed tells the person, from the error's domain and code as Apple's
/// headers number them (iPhoneOS 26.2: `PHError.h`, `FoundationErrors.h`).
@Suite("Photos load problems")
struct PhotosLoadProblemTests {
    @Test(
        "iCloud and network failures ask for the connection, a full device for space, a cancel is a deselect",
        arguments: [
            ("PHPhotosErrorDomain", 3164, PhotosLoadProblem.network),  // PHPhotosErrorNetworkAccessRequired
            ("PHPhotosErrorDomain", 3169, .network),  // PHPhotosErrorNetworkError
            ("NSURLErrorDomain", -1009, .network),  // NSURLErrorNotConnectedToInternet
            ("CloudPhotoLibraryErrorDomain", 1005, .network),
            ("PHPhotosErrorDomain", 3305, .space),  // PHPhotosErrorNotEnoughSpace
            ("NSCocoaErrorDomain", 640, .space),  // NSFileWriteOutOfSpaceError
            ("PHPhotosErrorDomain", 3072, .cancelled),  // PHPhotosErrorUserCancelled
            ("NSCocoaErrorDomain", 3072, .cancelled),  // NSUserCancelledError
            ("NSURLErrorDomain", -999, .cancelled),  // NSURLErrorCancelled
            ("NSPOSIXErrorDomain", 28, .space),  // ENOSPC
        ])
    func known(domain: String, code: Int, problem: PhotosLoadProblem) {
        #expect(PhotosLoadProblem(domain: domain, code: code) == problem)
    }

    @Test("a wrapped error is read through to Photos' own, under it")
    func wrapped() {
        let chain = [(domain: "NSItemProviderErrorDomain", code: -1000), (domain: "PHPhotosErrorDomain", code: 3169)]
        #expect(PhotosLoadProblem(chain: chain) == .network)
        #expect(PhotosLoadProblem(chain: [(domain: "NSItemProviderErrorDomain", code: -1000)]) == nil)
    }

    @Test("anything else keeps Photos' own words")
    func unknown() {
        #expect(PhotosLoadProblem(domain: "PHPhotosErrorDomain", code: 3303) == nil)  // PHPhotosErrorMissingResource
        #expect(PhotosLoadProblem(domain: "NSCocoaErrorDomain", code: 260) == nil)  // NSFileReadNoSuchFileError
    }
}
