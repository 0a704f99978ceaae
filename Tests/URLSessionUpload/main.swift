// `urlsession-upload URL FILE`: posts FILE as a form to URL through `URLSessionTransport`
// (FoundationNetworking), and nothing else: a small program whose peak memory is the
// transport's, which `URLSessionMemoryTests` measures with `/usr/bin/time -f %M`. Linux tests only.
#if canImport(URLSessionTransportLinux)
    import Foundation
    import PickupUpload
    import URLSessionTransportLinux

    let arguments = CommandLine.arguments
    guard arguments.count == 3, let url = URL(string: arguments[1]) else {
        FileHandle.standardError.write(Data("usage: urlsession-upload URL FILE\n".utf8))
        exit(2)
    }
    let journal = FileManager.default.temporaryDirectory.appendingPathComponent(
        "pickup-urlsession-upload-\(UUID().uuidString).sqlite"
    ).path
    do {
        let uploader = Uploader(
            journal: try UploadJournal(path: journal), options: UploadOptions(transport: URLSessionTransport()))
        let record = await uploader.upload(
            path: arguments[2], to: .form(FormTarget(url: url, field: "media")), type: "video/mp4")
        try? FileManager.default.removeItem(atPath: journal)
        print(record.state == .done ? "done" : "\(record.state): \(record.error.map { "\($0)" } ?? "")")
        exit(record.state == .done ? 0 : 1)
    } catch {
        print("the journal: \(error)")
        exit(1)
    }
#endif
