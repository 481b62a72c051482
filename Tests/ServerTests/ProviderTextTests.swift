import Testing

@testable import Server

@Suite("Provider text")
struct ProviderTextTests {
    @Test("terminal escapes, control characters and bidi overrides become single spaces")
    func unsafeCharactersBecomeSpaces() {
        #expect(ProviderText.clean("Sunset\u{1B}[31m over\n\tthe bay", maxBytes: 100) == "Sunset [31m over the bay")
        #expect(ProviderText.clean("abc\u{202E}def", maxBytes: 100) == "abc def")
        #expect(ProviderText.clean("  padded  ", maxBytes: 100) == "padded")
    }

    @Test("text is cut to its byte limit on a character boundary")
    func textIsCutOnCharacterBoundaries() {
        #expect(ProviderText.clean("héllo wörld", maxBytes: 3) == "hé")
        #expect(ProviderText.clean("👍🏽👍🏽", maxBytes: 9) == "👍🏽")
        #expect(ProviderText.clean("tags tags", maxBytes: 9).utf8.count <= 9)
    }
}
