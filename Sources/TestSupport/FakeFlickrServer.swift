import Foundation
import Imaging
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A stand-in for api.flickr.com on 127.0.0.1 over plain HTTP/1.1, speaking Flickr's documented
/// JSON for `flickr.photos.search` (numbers as numbers or as strings, JSONP when
/// `nojsoncallback` is missing, `stat: fail` with HTTP 200 for errors, error 20 past the 4,000th
/// result), and serving the images its results point to. Behaviours switch at run time so one
/// server covers success, empty results, a bad key, slow and broken answers. Every request is
/// recorded so tests can check what the client sent.
///
/// One thread accepts; each connection gets a thread, answers one request and closes
/// (`Connection: close`), which is all URLSession needs.
package final class FakeFlickrServer: @unchecked Sendable {
    /// How the search endpoint answers.
    package enum Behaviour: Sendable, Equatable {
        /// Success with this many photos in all, served `per_page` at a time.
        case photos(total: Int)
        /// `{"stat":"fail","code":N,"message":...}` with HTTP 200.
        case failure(code: Int, message: String)
        /// This HTTP status with an HTML body, as a proxy or an outage gives.
        case httpStatus(Int)
        /// HTTP 200 with a body that is not JSON.
        case invalidJSON
        /// HTTP 200 whose Content-Length promises more than is sent before the connection closes.
        case truncatedBody
        /// Reads the request and never answers (until `stop`), to trip the client's timeout.
        case slow
    }

    /// What Flickr does past the 4,000th result: both behaviours have been seen.
    package enum OverCap: Sendable {
        /// `stat: fail`, code 20, "Excessive photo offset in search".
        case error20
        /// Silently serve page 1 again.
        case firstPage
    }

    /// How the images answer.
    package enum ImageBehaviour: Sendable {
        case jpeg, png
        /// HTML instead of an image.
        case notAnImage
        /// 404 Not Found.
        case missing
    }

    /// One request as received.
    package struct Request: Sendable {
        package var path: String
        /// Query parameters, decoded; the last value wins when repeated.
        package var query: [String: String]
    }

    /// The key the fake accepts; any other gets error 100 like a bad key.
    package static let validKey = "0123456789abcdef0123456789abcdef"

    package let port: Int
    /// The REST endpoint to give the provider.
    package var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/services/rest/")! }
    /// Where the images are, for the provider's fallback URL building.
    package var imageHost: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    /// Left once the accepting thread has closed the listener.
    private let listening = DispatchGroup()
    private let state = NSCondition()
    private var stopped = false
    private var _behaviour: Behaviour
    private var _requests: [Request] = []
    private let jpegBytes: [UInt8]
    private let pngBytes: [UInt8]

    // Settings, changeable while running (guarded by `state`).
    private var _numbersAsStrings = false
    private var _forceJSONP = false
    private var _overCap = OverCap.error20
    private var _resultCap = 4000
    private var _omitMediumURLs = false
    private var _omitTitlesAndTags = false
    private var _imageBehaviour = ImageBehaviour.jpeg

    /// Starts listening on a free port of 127.0.0.1.
    package init(behaviour: Behaviour = .photos(total: 100)) throws {
        _behaviour = behaviour
        var image = RGBImage(width: 64, height: 48, color: .black)
        for y in 0..<48 {
            for x in 0..<64 { image[x, y] = RGBImage.Color(red: UInt8(x * 4), green: UInt8(y * 5), blue: 128) }
        }
        jpegBytes = try ImageCodec.encodeJPEG(image)
        pngBytes = try ImageCodec.encodePNG(image)
        listener = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 64)
        port = Socket.localPort(listener)
        // The thread holds the server weakly, so dropping the last reference stops it too.
        let listener = listener
        let listening = listening
        listening.enter()
        NamedThread.start("flickr-accept") { [weak self] in
            while let server = self, server.acceptOnce() {}
            Syscall.close(listener)
            listening.leave()
        }
    }

    // No waiting here: the last reference may go on the accepting thread itself.
    deinit { stopAccepting() }

    // MARK: Settings

    package var behaviour: Behaviour {
        get { locked { _behaviour } }
        set { locked { _behaviour = newValue } }
    }
    /// Send `page`, `pages`, `perpage`, `total`, `farm`, sizes and coordinates as strings.
    package var numbersAsStrings: Bool {
        get { locked { _numbersAsStrings } }
        set { locked { _numbersAsStrings = newValue } }
    }
    /// Wrap the JSON as `jsonFlickrApi(...)` even when `nojsoncallback=1` was sent.
    package var forceJSONP: Bool {
        get { locked { _forceJSONP } }
        set { locked { _forceJSONP = newValue } }
    }
    package var overCap: OverCap {
        get { locked { _overCap } }
        set { locked { _overCap = newValue } }
    }
    /// How many results the fake serves before `overCap` applies (Flickr: 4,000); lower it to
    /// reach the limit with a client that stops before Flickr's.
    package var resultCap: Int {
        get { locked { _resultCap } }
        set { locked { _resultCap = newValue } }
    }
    /// Leave `url_m` out of results, so the client must build image URLs from server/id/secret.
    package var omitMediumURLs: Bool {
        get { locked { _omitMediumURLs } }
        set { locked { _omitMediumURLs = newValue } }
    }
    /// Leave `title` and `tags` out of results.
    package var omitTitlesAndTags: Bool {
        get { locked { _omitTitlesAndTags } }
        set { locked { _omitTitlesAndTags = newValue } }
    }
    package var imageBehaviour: ImageBehaviour {
        get { locked { _imageBehaviour } }
        set { locked { _imageBehaviour = newValue } }
    }

    /// Every request so far, oldest first.
    package var requests: [Request] { locked { _requests } }
    /// The search requests so far.
    package var searchRequests: [Request] { requests.filter { $0.path == "/services/rest/" } }

    /// Stops accepting and releases slow requests; returns once the listener is closed (within
    /// 100 ms), so a connection made afterwards is refused.
    package func stop() {
        stopAccepting()
        listening.wait()
    }

    private func stopAccepting() {
        state.lock()
        stopped = true
        state.broadcast()
        state.unlock()
    }

    private func locked<T>(_ body: () -> T) -> T {
        state.lock()
        defer { state.unlock() }
        return body()
    }

    // MARK: Serving

    /// Waits up to 100 ms for a connection and hands it to a thread; false once stopped.
    private func acceptOnce() -> Bool {
        guard !locked({ stopped }) else { return false }
        guard (try? Syscall.waitUntilReadable(listener, timeoutMilliseconds: 100)) == true else { return true }
        guard case .processed(let client)? = try? Socket.accept(listener) else { return true }
        NamedThread.start("flickr-serve") { [self] in serve(client) }
        return true
    }

    private func serve(_ client: Int32) {
        defer { Syscall.close(client) }
        // Back to blocking, with a read timeout so a silent client cannot hold the thread.
        try? Socket.setBlocking(client, true)
        Socket.setTimeouts(client, seconds: 5)
        guard let head = readHead(client), let request = Self.parse(head) else {
            send(client, status: 400, contentType: "text/plain", body: Array("bad request".utf8))
            return
        }
        locked { _requests.append(request) }
        if request.path == "/services/rest/" {
            answerREST(client, request)
        } else {
            answerImage(client, request)
        }
    }

    private func answerREST(_ client: Int32, _ request: Request) {
        let (behaviour, asStrings, forceJSONP) = locked { (_behaviour, _numbersAsStrings, _forceJSONP) }
        let jsonp = forceJSONP || request.query["nojsoncallback"] != "1"
        func reply(_ json: String) {
            let text = jsonp ? "jsonFlickrApi(\(json))" : json
            send(client, status: 200, contentType: jsonp ? "text/javascript" : "application/json", body: Array(text.utf8))
        }
        switch behaviour {
        case .slow:
            state.lock()
            let deadline = Date().addingTimeInterval(120)
            while !stopped && state.wait(until: deadline) {}
            state.unlock()
            return
        case .httpStatus(let status):
            send(client, status: status, contentType: "text/html", body: Array("<html><body>Service error</body></html>".utf8))
            return
        case .invalidJSON:
            send(client, status: 200, contentType: "application/json", body: Array("<html>not json at all".utf8))
            return
        case .truncatedBody:
            let body = Array(#"{"photos":{"page":1,"pages":3,"perpage":10,"total":"#.utf8)
            send(client, status: 200, contentType: "application/json", body: body, declaredLength: body.count + 500)
            return
        case .failure(let code, let message):
            reply(Self.failureJSON(code: code, message: message))
            return
        case .photos(let total):
            guard request.query["method"] == "flickr.photos.search" else {
                reply(Self.failureJSON(code: 112, message: "Method \"\(request.query["method"] ?? "")\" not found"))
                return
            }
            guard request.query["api_key"] == Self.validKey else {
                reply(Self.failureJSON(code: 100, message: "Invalid API Key (Key has invalid format)"))
                return
            }
            guard request.query["format"] == "json" else {
                reply(Self.failureJSON(code: 111, message: "Format \"\(request.query["format"] ?? "rest")\" not found"))
                return
            }
            reply(searchJSON(request, total: total, asStrings: asStrings))
        }
    }

    private static func failureJSON(code: Int, message: String) -> String {
        #"{"stat":"fail","code":\#(code),"message":"\#(message.replacingOccurrences(of: "\"", with: "\\\""))"}"#
    }

    /// A page of a deterministic corpus: photo `i` has id `52000000000 + i`.
    private func searchJSON(_ request: Request, total: Int, asStrings: Bool) -> String {
        let (overCap, cap, omitURLs, omitText) = locked { (_overCap, _resultCap, _omitMediumURLs, _omitTitlesAndTags) }
        let perPage = min(250, max(1, Int(request.query["per_page"] ?? "") ?? 100))
        var page = max(1, Int(request.query["page"] ?? "") ?? 1)
        if (page - 1) * perPage >= cap {
            switch overCap {
            case .error20: return Self.failureJSON(code: 20, message: "Excessive photo offset in search")
            case .firstPage: page = 1
            }
        }
        let pages = (total + perPage - 1) / perPage
        let latitude = Double(request.query["lat"] ?? "") ?? 0
        let longitude = Double(request.query["lon"] ?? "") ?? 0
        func number(_ value: Int) -> String { asStrings ? "\"\(value)\"" : String(value) }
        func decimal(_ value: Double) -> String { asStrings ? "\"\(value)\"" : String(value) }
        var photos: [String] = []
        let first = (page - 1) * perPage
        for index in first..<min(total, first + perPage) {
            let id = String(52_000_000_000 + index)
            let secret = String(format: "%010x", index * 7919 + 12345)
            var fields = [
                #""id":"\#(id)""#, #""owner":"12345678@N00""#, #""secret":"\#(secret)""#, #""server":"65535""#,
                #""farm":\#(number(66))"#, #""ispublic":1,"isfriend":0,"isfamily":0"#,
                #""datetaken":"2023-05-14 19:42:10","datetakengranularity":0,"datetakenunknown":"0""#,
                #""ownername":"example_user""#,
                #""latitude":\#(decimal(latitude + Double(index % 10) * 0.001))"#,
                #""longitude":\#(decimal(longitude - Double(index % 7) * 0.001))"#,
                #""accuracy":16,"context":0"#,
            ]
            if !omitText {
                fields.append(#""title":"Fake photo \#(index)""#)
                fields.append(#""tags":"fake test subject\#(index % 5) uploaded:by=fakeflickr""#)
            }
            if !omitURLs {
                fields.append(
                    #""url_m":"http://127.0.0.1:\#(port)/65535/\#(id)_\#(secret).jpg","height_m":\#(number(48)),"width_m":\#(number(64))"#)
            }
            fields.append(
                #""url_q":"http://127.0.0.1:\#(port)/65535/\#(id)_\#(secret)_q.jpg","height_q":\#(number(150)),"width_q":\#(number(150))"#)
            photos.append("{" + fields.joined(separator: ",") + "}")
        }
        // Flickr has sent `total` as a string even when other numbers were numbers.
        let totalText = asStrings ? "\"\(total)\"" : String(total)
        return
            #"{"photos":{"page":\#(number(page)),"pages":\#(number(pages)),"perpage":\#(number(perPage)),"#
            + #""total":\#(totalText),"photo":[\#(photos.joined(separator: ","))]},"stat":"ok"}"#
    }

    private func answerImage(_ client: Int32, _ request: Request) {
        switch locked({ _imageBehaviour }) {
        case .jpeg: send(client, status: 200, contentType: "image/jpeg", body: jpegBytes)
        case .png: send(client, status: 200, contentType: "image/png", body: pngBytes)
        case .notAnImage: send(client, status: 200, contentType: "text/html", body: Array("<html>photo unavailable</html>".utf8))
        case .missing: send(client, status: 404, contentType: "text/html", body: Array("<html>not found</html>".utf8))
        }
    }

    // MARK: HTTP

    /// Reads up to the blank line ending the request head (16 KB at most).
    private func readHead(_ client: Int32) -> [UInt8]? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16 * 1024 {
            // A read that times out (SO_RCVTIMEO) reports "would block": the client said nothing.
            guard case .processed(let count)? = try? Syscall.read(client, into: &buffer), count > 0 else { return nil }
            head.append(contentsOf: buffer[0..<count])
            if let end = head.firstRange(of: Array("\r\n\r\n".utf8)) { return Array(head[..<end.lowerBound]) }
        }
        return nil
    }

    private static func parse(_ head: [UInt8]) -> Request? {
        guard let line = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", let components = URLComponents(string: String(parts[1])) else { return nil }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        return Request(path: components.path, query: query)
    }

    private func send(_ client: Int32, status: Int, contentType: String, body: [UInt8], declaredLength: Int? = nil) {
        let reason =
            [
                200: "OK", 400: "Bad Request", 404: "Not Found", 500: "Internal Server Error", 502: "Bad Gateway",
                503: "Service Unavailable",
            ][status] ?? "Status"
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\n"
            + "Content-Length: \(declaredLength ?? body.count)\r\nConnection: close\r\n\r\n"
        // A client that hung up is an error here (MSG_NOSIGNAL), never a SIGPIPE that ends the tests.
        try? Syscall.sendAll(client, Array(head.utf8) + body)
    }
}
