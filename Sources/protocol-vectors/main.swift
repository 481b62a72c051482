import ProtocolVectors
import Wire

#if canImport(Glibc)
    import Glibc
#endif

// Prints docs/PROTOCOL.md's golden vectors in the document's layout: every one, or those named
// on the command line (`scripts/print-vectors.sh roster admin-list-roster`). A new message's vector
// is written into the document and Tests/CoreTests/Fixtures/protocol-vectors.frozen from here.
let wanted = Set(CommandLine.arguments.dropFirst())
let cases = GoldenVectors.cases()
let unknown = wanted.subtracting(cases.map(\.0))
guard unknown.isEmpty else {
    print("protocol-vectors: no vector named \(unknown.sorted().joined(separator: ", ")); the names are those of docs/PROTOCOL.md")
    exit(2)
}
for (name, frame) in cases where wanted.isEmpty || wanted.contains(name) {
    print(GoldenVectors.documentBlock(name: name, frame: frame))
}
