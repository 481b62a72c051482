/// A named load pattern the bench can run.
enum Scenario: String, CaseIterable, Sendable {
    /// Poll with nothing new (optionally with a trickle of new snaps).
    case poll
    /// Full listing of one feed holding `--feed-snaps` snaps.
    case list
    /// Post a `--image-bytes` PNG; each reply is a durable, committed post.
    case post
    /// Open distinct snaps once each; any second success for one (snap, user) is a correctness failure.
    case view
    /// Fetch an album photo (each user's own album, filled by the server's photo source).
    case photo
    /// A new TCP connection, TLS handshake and Hello/Welcome per operation.
    case handshake
    /// Hold `--connections` logged-in connections doing nothing while one more connection polls.
    case idle
    /// A lecture hall: mostly polls, some posts and views.
    case mixed

    /// Whether connections log in (Resume) before the load starts.
    var needsLogin: Bool { self != .handshake }
}

/// The kinds of request the bench sends; latency is kept per kind.
enum OperationKind: Int, CaseIterable, Sendable {
    case poll, list, post, view, photo, handshake

    var name: String {
        switch self {
        case .poll: "poll"
        case .list: "list"
        case .post: "post"
        case .view: "view"
        case .photo: "photo"
        case .handshake: "handshake"
        }
    }
}

/// What each connection of a run does once it is logged in.
enum ConnectionRole: Sendable {
    /// Sends the scenario's requests with `--depth` in flight.
    case load
    /// Holds the connection open and sends nothing (`idle`).
    case idle
    /// Polls one request at a time while the idle connections are held (`idle`).
    case probe
    /// Posts a small snap `--new-snaps-per-sec` times a second; not measured (`poll`).
    case trickle
}
