/// One line of a command's "Exit codes:" help section.
public struct ExitCodeSpec: Sendable {
    public var code: Int32
    public var meaning: String

    public init(_ code: Int32, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }
}
