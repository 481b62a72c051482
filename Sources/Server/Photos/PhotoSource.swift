import Foundation

/// Which photo source the server uses (`--photos builtin|flickr|dir:PATH`).
///
/// Printing one never shows the Flickr API key: `description`, `debugDescription` and the
/// mirror `dump` uses all leave it out.
package enum PhotoSource: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The bundled offline pool and generated scenes (the default).
    case builtin
    /// The Flickr REST API with this key, at this endpoint.
    case flickr(key: String, endpoint: URL)
    /// A folder of PNG/JPEG photos with an `index.csv`.
    case directory(path: String)

    /// Flickr's REST endpoint.
    static let defaultFlickrEndpoint = URL(string: "https://api.flickr.com/services/rest/")!

    /// `builtin`, `flickr (https://api.flickr.com/services/rest/)` or `dir:/path/to/photos`.
    package var description: String {
        switch self {
        case .builtin: "builtin"
        case .flickr(_, let endpoint): "flickr (\(endpoint.absoluteString))"
        case .directory(let path): "dir:\(path)"
        }
    }

    package var debugDescription: String { description }

    package var customMirror: Mirror { Mirror(self, children: ["source": description]) }

    /// Reads the `--photos` value. `flickrKey` is required for `flickr` and ignored otherwise
    /// (it may come from the environment); the endpoint must be https, or http on the
    /// loopback interface for tests, so the key never crosses a network in clear text.
    static func parse(_ text: String, flickrKey: String?, flickrEndpoint: String?) throws(PhotoSourceError) -> PhotoSource {
        if text.hasPrefix("dir:") {
            let path = String(text.dropFirst(4))
            guard !path.isEmpty else { throw PhotoSourceError("--photos dir:PATH needs a folder, e.g. dir:./class-photos") }
            guard flickrEndpoint == nil else { throw PhotoSourceError("--flickr-endpoint goes with --photos flickr") }
            return .directory(path: path)
        }
        switch text {
        case "builtin":
            guard flickrEndpoint == nil else { throw PhotoSourceError("--flickr-endpoint goes with --photos flickr") }
            return .builtin
        case "flickr":
            guard let key = flickrKey, !key.isEmpty else {
                throw PhotoSourceError("--photos flickr needs an API key: give --flickr-key KEY or set SNAPSHARE_FLICKR_KEY")
            }
            // The key goes into a query string; refuse anything that would need escaping rather
            // than guess (and never echo it back).
            guard key.count <= 128,
                key.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
            else {
                throw PhotoSourceError("the Flickr API key must be letters and digits only (a Flickr key is 32 hexadecimal digits)")
            }
            return .flickr(key: key, endpoint: try endpoint(flickrEndpoint))
        default:
            throw PhotoSourceError("--photos is builtin, flickr or dir:PATH (got '\(text)')")
        }
    }

    private static func endpoint(_ text: String?) throws(PhotoSourceError) -> URL {
        guard let text else { return defaultFlickrEndpoint }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil
        else {
            throw PhotoSourceError("--flickr-endpoint must be a URL such as https://api.flickr.com/services/rest/ (no query)")
        }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw PhotoSourceError(
                "--flickr-endpoint must use https (http only for 127.0.0.1 or localhost), so the API key is not sent in clear text")
        }
        return url
    }
}
