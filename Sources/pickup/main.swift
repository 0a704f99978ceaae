import Pickup

for path in CommandLine.arguments.dropFirst() {
    do {
        let info = try MediaProbe().probe(path: path)
        print(path, info.facts.map { "\($0.name)=\($0.value)" }.joined(separator: " "))
    } catch {
        print("ERROR", error)
    }
}
