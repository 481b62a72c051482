import CommandLineParsing
import Foundation
import Imaging
import Wire

/// Everything the server can be told, with the defaults it runs on when told nothing.
package struct ServerConfiguration: Sendable {
    package var host = "127.0.0.1"
    package var port = 7443
    package var dataDirectory = "./snapshare-data"
    package var certificatesDirectory = "./certs"
    /// A certificate chain and key given by the operator; when nil, dev certificates are made.
    package var tlsCertificateFile: String?
    package var tlsKeyFile: String?
    /// Extra names for the generated server certificate.
    var certificateHosts: [String] = []
    /// Registration needs this code when set.
    package var classCode: String?
    /// Who may register at all (`--registration`).
    package var registration: RegistrationMode = .open
    /// Whether students' new snaps wait for an admin's approval (`--moderation`).
    package var moderation: ModerationMode = .off
    package var snapTTLMilliseconds: Int64 = 7 * 24 * 3600 * 1000
    package var logLevel: LogLevel = .info
    /// How log lines are written (`--log-format`).
    package var logFormat: LogFormat = .text
    /// Where `GET /metrics` and `GET /health` are served over plain HTTP (`--metrics`); off when nil.
    package var metricsAddress: HostPort?
    /// Where album photos come from (`--photos`); built with `photoSettings`.
    package var photoSource: PhotoSource = .builtin
    /// Photos are searched within this distance of a pin (`--photo-radius`), as Flickr's `radius`.
    var photoSearchRadiusKilometres = 5.0
    /// How long a remote photo source may stay silent on one request before it counts as down.
    package var photoRequestTimeoutSeconds = 15.0

    // Limits.
    package var maxImageBytes = 5 * 1024 * 1024
    package var maxImageDimension = 8192
    var maxImagePixels = 16_777_216 // 4096x4096: a 12 MP phone photo fits; viewers decode w x h x 3 bytes
    /// Largest frame payload before login (Register and Login are small).
    var maxFrameBytesBeforeLogin = 16 * 1024
    package var handshakeTimeoutMilliseconds: Int64 = 10_000
    package var idleTimeoutMilliseconds: Int64 = 300_000
    /// Once a frame's header has arrived, its payload must arrive within this time.
    package var frameTimeoutMilliseconds: Int64 = 60_000
    /// Per student (admins are exempt): posts in any hour, and bytes of pictures stored. A class
    /// never reaches them; a runaway script does.
    package var postsPerHourQuota = 60
    package var storedBytesQuota: Int64 = 200 * 1024 * 1024
    /// Scheduled backups (`--backup-dir`, `--backup-every`, `--backup-keep`); nil: none.
    var backupDirectory: String?
    var backupIntervalMilliseconds: Int64 = 6 * 3600 * 1000
    var backupKeep = 28
    /// At SIGTERM, how long requests in flight may take to finish before the server closes anyway.
    var drainTimeoutMilliseconds: Int64 = 10_000
    package var maxConnections = 10_000
    /// Connections from one IP address; a class behind one NAT shares an address.
    var maxConnectionsPerAddress = 1_000
    /// Connections from one IP address that have not logged in yet (handshakes included).
    package var maxAnonymousConnectionsPerAddress = 64
    /// Logged-in connections of one user; above it the user's oldest connection closes.
    package var maxConnectionsPerUser = 32
    /// After Hello (or Logout) a connection must log in within this time, whatever it sends.
    package var loginTimeoutMilliseconds: Int64 = 30_000
    package var maxRequestsInFlight = 64
    /// The protocol versions served: by default every one this build speaks.
    package var protocolVersions = ProtocolConstants.versions
    /// Bytes one connection may hold: payloads of requests being handled, the largest reply
    /// each can produce, and replies not yet sent. Requests wait, and reading stops, beyond it.
    var connectionBufferBytes = 12 * 1024 * 1024
    var storageReaders = 2
    /// Memory for hot photo and snap images, shared by every reply that sends them (`ImageCache`).
    var imageCacheBytes = 32 * 1024 * 1024
    var sessionLifetimeMilliseconds: Int64 = 30 * 24 * 3600 * 1000
    /// How wrong passwords are throttled (see `LoginThrottle`).
    package var loginThrottle = LoginThrottle.Policy()
    /// How wrong class codes are throttled: per address, with delays for everyone past a
    /// class-wide allowance (a class behind one NAT shares an address, so it gets a class's
    /// worth of typos).
    package var classCodeThrottle: LoginThrottle.Policy = {
        var policy = LoginThrottle.Policy()
        policy.perNameAndAddress = 40
        policy.perAddress = 40
        policy.freePerName = 60
        return policy
    }()
    /// How wrong passwords from a device that logged in before are throttled: by that device's
    /// own budget only, never its address's.
    var deviceLoginThrottle: LoginThrottle.Policy = {
        var policy = LoginThrottle.Policy()
        policy.perNameAndAddress = 10
        // The "address" is the device itself, whose token belongs to one user: its budget is
        // the name-and-device one, which an admin's unlock of the name lifts.
        policy.perAddress = 10_000
        policy.freePerName = 10
        return policy
    }()
    /// How long a device token lasts unused.
    var deviceLifetimeMilliseconds: Int64 = 180 * 24 * 3600 * 1000
    var expiryPurgeIntervalMilliseconds: Int64 = 60_000
    /// How long an album download's lease lasts (renewed every third of it while it runs), and
    /// how often each instance looks for albums whose lease ran out (see `Albums`).
    package var albumLeaseMilliseconds: Int64 = 60_000
    package var albumLeaseScanMilliseconds: Int64 = 10_000

    package init() {}

    /// Largest frame payload after login: an image plus room for the other fields.
    package var maxFrameBytes: Int { maxImageBytes + 64 * 1024 }

    package var databasePath: String { Self.databasePath(in: dataDirectory) }

    /// A PostgreSQL database to share with other instances, as libpq takes it (a
    /// `postgresql://user@host:port/db` URI or `key=value` pairs, `?sslmode=` and the password
    /// file included); nil: SQLite in the data folder.
    package var database: String?

    /// Where the data is, for the start-up lines: the SQLite file, or the PostgreSQL database
    /// without any password written in it.
    package var databaseDescription: String {
        guard let database else { return databasePath }
        return "PostgreSQL "
            + database.replacingOccurrences(of: #":[^:@/]*@"#, with: ":…@", options: .regularExpression)
            .replacingOccurrences(of: #"password=\S*"#, with: "password=…", options: .regularExpression)
    }

    /// The database file in a data folder.
    package static func databasePath(in dataDirectory: String) -> String { dataDirectory + "/snapshare.db" }
}

extension ServerConfiguration {
    /// What the photo source is built with.
    var photoSettings: PhotoSource.Settings {
        PhotoSource.Settings(
            searchRadiusKilometres: photoSearchRadiusKilometres,
            requestTimeoutSeconds: photoRequestTimeoutSeconds, maxImageBytes: maxImageBytes)
    }

    /// The limits every received image is checked against (posts and album photos alike).
    var imageLimits: ImageLimits {
        ImageLimits(maxBytes: maxImageBytes, maxWidth: maxImageDimension, maxHeight: maxImageDimension, maxPixels: maxImagePixels)
    }

    /// `MIN-MAX` or one version, within what this build speaks; nil otherwise.
    package static func protocolVersions(parsing text: String) -> ClosedRange<UInt16>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { UInt16($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), let low = parts.first ?? nil, let high = parts.last ?? nil, low <= high else { return nil }
        let versions = low...high
        return ProtocolConstants.versions.lowerBound <= low && high <= ProtocolConstants.versions.upperBound ? versions : nil
    }
}
