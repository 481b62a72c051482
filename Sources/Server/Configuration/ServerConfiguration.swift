import Shared

/// Everything the server can be told, with the defaults it runs on when told nothing.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 7443
    public var dataDirectory = "./snapshare-data"
    public var certificatesDirectory = "./certs"
    /// A certificate chain and key given by the operator; when nil, dev certificates are made.
    public var tlsCertificateFile: String?
    public var tlsKeyFile: String?
    /// Extra names for the generated server certificate.
    public var certificateHosts: [String] = []
    /// Registration needs this code when set.
    public var classCode: String?
    public var snapTTLMilliseconds: Int64 = 7 * 24 * 3600 * 1000
    public var logLevel: LogLevel = .info
    /// Where album photos come from (`--photos`); build it with `makeProvider(logger:)`.
    public var photoSource: PhotoSource = .builtin
    /// Photos are searched within this distance of a pin (`--photo-radius`), as Flickr's `radius`.
    public var photoSearchRadiusKilometres = 5.0
    /// How long a remote photo source may stay silent on one request before it counts as down.
    public var photoRequestTimeoutSeconds = 15.0

    // Limits.
    public var maxImageBytes = 5 * 1024 * 1024
    public var maxImageDimension = 8192
    public var maxImagePixels = 16_777_216  // 4096x4096: a 12 MP phone photo fits; viewers decode w x h x 3 bytes
    /// Largest frame payload before login (Register and Login are small).
    public var maxFrameBytesBeforeLogin = 16 * 1024
    public var handshakeTimeoutMilliseconds: Int64 = 10_000
    public var idleTimeoutMilliseconds: Int64 = 300_000
    /// Once a frame's header has arrived, its payload must arrive within this time.
    public var frameTimeoutMilliseconds: Int64 = 60_000
    public var maxConnections = 10_000
    public var maxRequestsInFlight = 64
    /// Above this many bytes waiting to be sent to one peer, stop reading from it.
    public var outboundHighWater = 8 * 1024 * 1024
    public var storageReaders = 2
    public var sessionLifetimeMilliseconds: Int64 = 30 * 24 * 3600 * 1000
    /// Failed logins per user name in `loginWindowMilliseconds` before further tries are refused.
    public var maxLoginFailures = 5
    public var loginWindowMilliseconds: Int64 = 15 * 60 * 1000
    public var expiryPurgeIntervalMilliseconds: Int64 = 60_000

    public init() {}

    /// Largest frame payload after login: an image plus room for the other fields.
    public var maxFrameBytes: Int { maxImageBytes + 64 * 1024 }

    public var databasePath: String { Self.databasePath(in: dataDirectory) }

    /// The database file in a data folder.
    public static func databasePath(in dataDirectory: String) -> String { dataDirectory + "/snapshare.db" }
}

extension ServerConfiguration {
    /// The limits every received image is checked against (posts and album photos alike).
    public var imageLimits: ImageLimits {
        ImageLimits(maxBytes: maxImageBytes, maxWidth: maxImageDimension, maxHeight: maxImageDimension, maxPixels: maxImagePixels)
    }
}
