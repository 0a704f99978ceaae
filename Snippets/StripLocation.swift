// A photo without its place, before it leaves the device: GPS, make, model and XMP
// places dropped, orientation and capture date kept.

import Foundation
import Pickup

let path = CommandLine.arguments.dropFirst().first ?? "IMG_0001.JPG"
do {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    // HEIFPrivacy, PNGPrivacy, WebPPrivacy, GIFPrivacy alike
    let clean = try JPEGPrivacy.stripped(bytes)
    try Data(clean).write(to: URL(fileURLWithPath: path + ".clean.jpg"))
} catch {
    print(error)  // bytes it cannot rewrite are refused, never guessed at
}
