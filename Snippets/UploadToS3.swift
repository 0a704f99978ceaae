// S3 multipart uploads, signed with credentials or through URLs presigned by the app's
// backend (no credentials in the app), and plain form posts.

import Foundation
import PickupUpload

// snippet.hide
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
// snippet.show

/// Asks the app's backend to presign each S3 request.
struct Backend: S3URLSigner {
    func presignedURL(
        method: String, location: S3Location, query: [(String, String)]
    ) async throws -> URL {
        var parts = URLComponents(string: "https://api.example.com/presign")
        parts?.queryItems =
            [
                URLQueryItem(name: "method", value: method),
                URLQueryItem(name: "key", value: location.key),
            ]
            + query.map { URLQueryItem(name: $0.0, value: $0.1) }
        guard let url = parts?.url else { throw URLError(.badURL) }
        let (data, _) = try await URLSession.shared.data(from: url)
        guard
            let signed = URL(string: String(decoding: data, as: UTF8.self))
        else { throw URLError(.badURL) }
        return signed
    }
}

func send() async throws {
    let journal = try UploadJournal()
    guard let endpoint = URL(string: "https://s3.us-east-1.amazonaws.com")
    else { return }
    let place = S3Location(
        endpoint: endpoint, bucket: "photos", key: "2026/IMG_0001.MOV")

    // With credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
    // AWS_REGION):
    let signed = Uploader(
        journal: journal, s3Credentials: S3Credentials.fromEnvironment())
    _ = await signed.upload(
        path: "IMG_0001.MOV", to: .s3(place), type: "video/quicktime")

    // With the backend's presigned URLs:
    let presigned = Uploader(journal: journal, s3Signer: Backend())
    _ = await presigned.upload(
        path: "IMG_0001.MOV", to: .s3Presigned(place),
        type: "video/quicktime")

    // A form post; a resumed form upload sends its fields again.
    guard let form = URL(string: "https://example.com/upload") else {
        return
    }
    let target = FormTarget(url: form, field: "photo")
    _ = await signed.upload(
        path: "IMG_0001.HEIC", to: .form(target), type: "image/heic")
}
