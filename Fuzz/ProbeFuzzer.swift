// libFuzzer entry point, compiled together with the Pickup core's sources by
// scripts/fuzz.sh (swiftc -sanitize=fuzzer,address). Not part of the package.
//
// The first byte picks the target when PICKUP_FUZZ_TARGET is unset:
// every input goes to MediaProbe (which sniffs the format from the bytes),
// inputs starting with "II*\0" or "MM\0*" also go to the EXIF reader directly,
// JPEGs, PNGs, GIFs, WebPs and ISO BMFF files also go through their
// privacy rewriter (whose output must probe again; HEIFPrivacy's must keep
// the size).

@_cdecl("LLVMFuzzerTestOneInput")
public func pickupFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let probe = MediaProbe()
    if let info = try? probe.probe(bytes: bytes) {
        // Touch every fact, as the CLI does when it prints them.
        _ = info.facts.count
        _ = info.creationDate?.iso8601
    }
    if TIFFReader.isHeader(bytes, at: 0) {
        _ = try? EXIFMetadata.parse(bytes, limits: .default)
    }
    if bytes.starts(with: [0xFF, 0xD8]), let stripped = try? JPEGPrivacy.stripped(bytes) {
        _ = try? probe.probe(bytes: stripped)
    }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), let stripped = try? PNGPrivacy.stripped(bytes) {
        _ = try? probe.probe(bytes: stripped)
    }
    if bytes.starts(with: Array("GIF8".utf8)), let stripped = try? GIFPrivacy.stripped(bytes) {
        _ = try? probe.probe(bytes: stripped)
    }
    if bytes.starts(with: Array("RIFF".utf8)), let stripped = try? WebPPrivacy.stripped(bytes) {
        _ = try? probe.probe(bytes: stripped)
    }
    if bytes.count >= 8, bytes[4...7].elementsEqual("ftyp".utf8), let stripped = try? HEIFPrivacy.stripped(bytes) {
        precondition(stripped.count == bytes.count, "HEIFPrivacy changed the file's size")
        _ = try? probe.probe(bytes: stripped)
    }
    return 0
}
