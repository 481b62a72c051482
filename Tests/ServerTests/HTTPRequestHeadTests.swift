import Testing

@testable import Server

/// The metrics listener's reading of a request head: method and path, a capped size, and a
/// refusal for whatever is not HTTP/1.x.
@Suite struct HTTPRequestHeadTests {
    private func parse(_ text: String) -> HTTPRequestHead.Parse { HTTPRequestHead.parse(Array(text.utf8)) }

    @Test func aGetWithHeadersGivesItsMethodAndPathWithoutTheQuery() {
        #expect(
            parse("GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n")
                == .complete(HTTPRequestHead(method: "GET", path: "/metrics")))
        #expect(parse("POST /health HTTP/1.0\r\n\r\n") == .complete(HTTPRequestHead(method: "POST", path: "/health")))
    }

    @Test func aHeadWithoutItsBlankLineIsNotCompleteYet() {
        #expect(parse("GET /metrics HTTP/1.1\r\nHost: a\r\n") == .incomplete)
        #expect(parse("") == .incomplete)
    }

    @Test(arguments: [
        "garbage\r\n\r\n", "GET /metrics\r\n\r\n", "GET metrics HTTP/1.1\r\n\r\n", "get / HTTP/1.1\r\n\r\n",
        "GET / HTTP/2\r\n\r\n", "GET / HTTP/1.1\r\nno colon here\r\n\r\n", "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
    ])
    func whatIsNotAnHTTP1RequestHeadIsMalformed(_ text: String) {
        guard case .malformed = parse(text) else {
            Issue.record("\(text.debugDescription) was accepted")
            return
        }
    }

    @Test func aHeadOverTheCapIsRefusedWithoutWaitingForItsEnd() {
        let long = "GET / HTTP/1.1\r\nX-Filler: " + String(repeating: "x", count: HTTPRequestHead.maximumBytes)
        #expect(parse(long) == .malformed("request head over \(HTTPRequestHead.maximumBytes) bytes"))
        #expect(parse(long + "\r\n\r\n") == .malformed("request head over \(HTTPRequestHead.maximumBytes) bytes"))
    }
}
