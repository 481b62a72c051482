import Foundation
import Testing

@testable import Client

/// A path typed or dropped into the app's file prompt.
@Suite("Typed paths")
struct TypedPathTests {
    @Test("a dropped path quoted as a shell word means the file inside the quotes, ~ expanded")
    func quoted() {
        let home = NSHomeDirectory()
        #expect(TypedPath.candidates("'~/Pictures/x.png'").contains(home + "/Pictures/x.png"))
        #expect(TypedPath.candidates("'/tmp/my photo.png'").contains("/tmp/my photo.png"))
        #expect(TypedPath.candidates("\"/tmp/my \\\"best\\\" photo.png\"").contains("/tmp/my \"best\" photo.png"))
        #expect(TypedPath.candidates("/tmp/my\\ photo.png").contains("/tmp/my photo.png"))
        #expect(TypedPath.candidates("'/tmp/it'\\''s.png'").contains("/tmp/it's.png"))
        #expect(TypedPath.candidates("file:///tmp/my%20photo.png").contains("/tmp/my%20photo.png") == false)
        #expect(TypedPath.candidates("file:///tmp/my%20photo.png").contains("/tmp/my photo.png"))
    }

    @Test("a path typed plainly comes first, spaces and all; nothing typed means nothing")
    func plain() {
        #expect(TypedPath.candidates("  ~/x.png ").first == NSHomeDirectory() + "/x.png")
        #expect(TypedPath.candidates("/tmp/my photo.png") == ["/tmp/my photo.png"])
        #expect(TypedPath.candidates("   ").isEmpty)
        #expect(TypedPath.shellWord("'unclosed") == nil && TypedPath.shellWord("two words") == nil)
    }
}
