import Foundation

/// The JSON Flickr sends for `flickr.photos.search` (`format=json`), decoded leniently.
///
/// Flickr's JSON is a mechanical mapping of its XML, and over the years numbers have come both
/// as JSON numbers and as strings (`"total": "1190"` and `"total": 1190`, `"height_m": "500"`,
/// `"latitude": "37.83"`), so every number here accepts either, and every field a photo might
/// lack is optional. A failure is `{"stat": "fail", "code": 100, "message": "..."}`, with HTTP 200.
struct FlickrResponse: Decodable {
    var stat: String?
    var code: Lenient<Int>?
    var message: String?
    var photos: Photos?

    /// The `photos` object of a successful search.
    struct Photos: Decodable {
        var page: Lenient<Int>?
        var pages: Lenient<Int>?
        var perpage: Lenient<Int>?
        var total: Lenient<Int>?
        var photo: [Photo]?
    }

    /// One search result with the extras we ask for.
    struct Photo: Decodable {
        var id: Lenient<String>?
        var secret: Lenient<String>?
        var server: Lenient<String>?
        var farm: Lenient<Int>?
        var title: Lenient<String>?
        var tags: Lenient<String>?
        var latitude: Lenient<Double>?
        var longitude: Lenient<Double>?
        var urlM: String?
        var widthM: Lenient<Int>?
        var heightM: Lenient<Int>?
        var ownername: Lenient<String>?
        var datetaken: Lenient<String>?

        enum CodingKeys: String, CodingKey {
            case id, secret, server, farm, title, tags, latitude, longitude, ownername, datetaken
            case urlM = "url_m"
            case widthM = "width_m"
            case heightM = "height_m"
        }
    }

    /// A value that may arrive as a JSON number or a JSON string (or, for strings, a number);
    /// a value of any other shape, or a string that is no number, decodes as absent rather than
    /// failing the whole page.
    struct Lenient<Value: LenientValue>: Decodable {
        var value: Value?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            value = Value.decodeLeniently(container)
        }
    }

    /// What `Lenient` can hold.
    protocol LenientValue {
        static func decodeLeniently(_ container: any SingleValueDecodingContainer) -> Self?
    }

    /// Parses a body: plain JSON, or JSONP (`jsonFlickrApi({...})`), which Flickr sends when
    /// `nojsoncallback` is missing and which some proxies keep.
    static func parse(_ body: [UInt8]) throws(ProviderError) -> FlickrResponse {
        var bytes = body[...]
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        while let first = bytes.first, whitespace.contains(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, whitespace.contains(last) { bytes = bytes.dropLast() }
        let prefix = Array("jsonFlickrApi(".utf8)
        if bytes.starts(with: prefix) {
            bytes = bytes.dropFirst(prefix.count)
            if bytes.last == UInt8(ascii: ";") { bytes = bytes.dropLast() }
            guard bytes.last == UInt8(ascii: ")") else { throw ProviderError(.badResponse, "Flickr sent a JSONP answer that does not end") }
            bytes = bytes.dropLast()
        }
        do {
            return try JSONDecoder().decode(FlickrResponse.self, from: Data(bytes))
        } catch {
            throw ProviderError(.badResponse, "Flickr's answer is not the JSON expected (\(bytes.count) bytes)")
        }
    }
}

extension Int: FlickrResponse.LenientValue {
    static func decodeLeniently(_ container: any SingleValueDecodingContainer) -> Int? {
        if let number = try? container.decode(Int.self) { return number }
        if let number = try? container.decode(Double.self), number.isFinite, abs(number) < 9e15 { return Int(number) }
        if let text = try? container.decode(String.self) { return Int(text.trimmingCharacters(in: .whitespaces)) }
        return nil
    }
}

extension Double: FlickrResponse.LenientValue {
    static func decodeLeniently(_ container: any SingleValueDecodingContainer) -> Double? {
        if let number = try? container.decode(Double.self), number.isFinite { return number }
        if let text = try? container.decode(String.self), let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite {
            return number
        }
        return nil
    }
}

extension String: FlickrResponse.LenientValue {
    static func decodeLeniently(_ container: any SingleValueDecodingContainer) -> String? {
        if let text = try? container.decode(String.self) { return text }
        if let number = try? container.decode(Int.self) { return String(number) }
        // Flickr's XML-to-JSON mapping puts element text under `_content` (e.g. `description`).
        if let wrapped = try? container.decode([String: String].self), let text = wrapped["_content"] { return text }
        return nil
    }
}
