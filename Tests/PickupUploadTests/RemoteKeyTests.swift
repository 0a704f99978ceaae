import Pickup
import PickupUpload
import Testing

@Suite("Remote keys: templates and collisions")
struct RemoteKeyTests {
    func key(_ template: String) throws -> RemoteKey {
        switch RemoteKey.parse(template) {
        case .success(let key): return key
        case .failure(let error): throw error
        }
    }

    @Test func everyPlaceholder() throws {
        let facts = RemoteKey.Facts(
            relativePath: "trip/IMG_0004.JPG",
            taken: MediaDate(year: 2026, month: 5, day: 1, hour: 8, minute: 0, second: 0, zone: .utc),
            itemID: nil, sha256: "abcdef0123456789" + String(repeating: "0", count: 48))
        #expect(try key("{relpath}").render(facts) == "trip/IMG_0004.JPG")
        #expect(try key("{date}/{name}").render(facts) == "2026/05/01/IMG_0004.JPG")
        #expect(try key("{stem}-{id}.{ext}").render(facts) == "IMG_0004-abcdef012345.JPG")
        #expect(try key("x/{sha256}").render(facts) == "x/" + (facts.sha256 ?? ""))
        var undated = facts
        undated.taken = nil
        undated.itemID = "3f2a9c0b1d2e"
        #expect(try key("{date}/{id}").render(undated) == "undated/3f2a9c0b1d2e")
        #expect(try key("{id}").needsSHA256 && !key("{name}").needsSHA256)
    }

    @Test func badTemplatesAreRefused() {
        for template in ["{album}", "{name", "a/{}"] {
            guard case .failure = RemoteKey.parse(template) else {
                Issue.record("\(template) was accepted")
                continue
            }
        }
        // A key is stored as written: parts a store would walk or fold away are refused, saying so.
        for (template, said) in [
            ("../../etc/{name}", "a '..' part"), ("trip/./{name}", "a '.' part"), ("/{name}", "begins with '/'"),
            ("a//{name}", "an empty part"), ("{date}/", "an empty part"), ("x/..", "a '..' part"),
        ] {
            guard case .failure(let error) = RemoteKey.parse(template) else {
                Issue.record("\(template) was accepted")
                continue
            }
            #expect(error.message.contains(said), "\(error.message)")
        }
        for template in ["{date}/{name}", "..{name}", "a.b/{stem}.{ext}", "{relpath}"] {
            guard case .success = RemoteKey.parse(template) else {
                Issue.record("\(template) was refused")
                continue
            }
        }
    }

    @Test func collisionsNameEverySource() {
        let found = RemoteKey.collisions([
            (key: "a/x.jpg", source: "1/x.jpg"), (key: "a/y.jpg", source: "y.jpg"), (key: "a/x.jpg", source: "2/x.jpg"),
        ])
        #expect(found.count == 1)
        #expect(found.first?.key == "a/x.jpg")
        #expect(found.first?.sources == ["1/x.jpg", "2/x.jpg"])
    }
}
