// swift-tools-version:6.0
import PackageDescription

// Snapshare: a class photo-sharing server (TLS over OpenSSL, SQLite, length-prefixed binary
// protocol) and its terminal client. No outside Swift packages: C libraries come from Debian.
let package = Package(
    name: "Snapshare",
    products: [
        .executable(name: "snapshare-server", targets: ["snapshare-server"]),
        .executable(name: "snapshare", targets: ["snapshare"]),
        .executable(name: "snapshare-bench", targets: ["snapshare-bench"]),
    ],
    targets: [
        // C system libraries; each folder holds a module map and a header of static inline shims
        // for the macros and variadic functions Swift cannot import.
        .systemLibrary(name: "COpenSSL", path: "Sources/Shared/COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/Shared/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgreSQL", path: "Sources/Shared/CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Linux calls the Glibc module leaves out: epoll, eventfd, accept4, ioctl(TIOCGWINSZ).
        .target(name: "CLinux", path: "Sources/Shared/CLinux"),
        // PNG and JPEG decode/encode from memory. libjpeg reports errors with longjmp, which
        // Swift cannot catch, so the whole codec call lives in C.
        .target(
            name: "CImageCodec", path: "Sources/Shared/CImageCodec",
            linkerSettings: [.linkedLibrary("png"), .linkedLibrary("jpeg"), .linkedLibrary("z")]
        ),

        // The core, in layers under Sources/Shared (docs/ARCHITECTURE.md's table says who may import
        // whom, C targets included, and ModuleImportTests holds this file and the sources to it): Wire, JSON,
        // Crypto and BuildStamp import none of ours; Posix (the one syscall layer, which
        // SystemCallPlacementTests holds every other source to) imports only CLinux;
        // CommandLineParsing, SQL and TerminalUI import Posix; TLS imports Crypto and Posix; SQLite
        // and PostgreSQL import Posix and SQL; Imaging and Release import Wire; ClassExport imports
        // Wire, Posix and JSON. Nothing here knows the server or the client; only TerminalUI knows
        // terminals.
        // Bytes, frames and messages of docs/PROTOCOL.md: pure, no system calls.
        .target(name: "Wire", path: "Sources/Shared/Wire", linkerSettings: [.linkedLibrary("m")]),
        // The one JSON writer (ordered objects, as --json, snaps.json, the reports and JSON log lines write them) and its reader.
        .target(name: "JSON", path: "Sources/Shared/JSON"),
        // The command-line parser shared by both executables and the bench.
        .target(name: "CommandLineParsing", dependencies: ["Posix"], path: "Sources/Shared/CommandLineParsing"),
        // SHA-256, randomness and constant-time comparison, through OpenSSL.
        .target(name: "Crypto", dependencies: ["COpenSSL"], path: "Sources/Shared/Crypto"),
        // TLS 1.3 as a state machine over memory BIOs (or a socket sink in C), certificates.
        .target(name: "TLS", dependencies: ["COpenSSL", "Crypto", "Posix"], path: "Sources/Shared/TLS"),
        // Every system call: the Syscall wrapper (poll included), sockets, epoll, named threads and
        // the one work queue they serve, signals (the one signal path, `SignalPipe`), terminals,
        // paths (`FileSystem`), and `StagedOutput` (the one way a file is written: owner-only
        // unless asked, named only once complete and on the disk).
        .target(name: "Posix", dependencies: ["CLinux"], path: "Sources/Shared/Posix"),
        // PNG and JPEG headers, decoding, verification, resampling.
        .target(name: "Imaging", dependencies: ["CImageCodec", "Wire"], path: "Sources/Shared/Imaging"),
        // The terminal layer: raw mode, output, colour depth, display width, input events, a cell
        // grid and the diffing writer that draws it. Knows nothing of Snapshare.
        .target(name: "TerminalUI", dependencies: ["Posix"], path: "Sources/Shared/TerminalUI"),
        // The one SQLite layer: connections, cached statements read by column name, transactions
        // and savepoints, blobs, background WAL checkpoints. Used by the server's store and the
        // client's vacation files.
        .target(name: "SQLite", dependencies: ["CSQLite", "Posix", "SQL"], path: "Sources/Shared/SQLite"),
        // libpq for the PostgreSQL engine: connections, parameters, prepared statements, rows
        // read by column name, transactions, SQLSTATE errors, LISTEN/NOTIFY.
        .target(name: "PostgreSQL", dependencies: ["CPostgreSQL", "Posix", "SQL"], path: "Sources/Shared/PostgreSQL"),
        // What both engines share: SQL written once with its values beside their placeholders,
        // rendered for either; values, rows, connections and failures in one vocabulary.
        .target(name: "SQL", dependencies: ["Posix"], path: "Sources/Shared/SQL"),
        // The class's snaps as files: a folder per feed, snaps.json and an index.html gallery.
        .target(name: "ClassExport", dependencies: ["Wire", "Posix", "JSON"], path: "Sources/Shared/ClassExport"),
        // The product's version number, the protocol versions it speaks, and the commit built.
        .target(name: "Release", dependencies: ["Wire"], path: "Sources/Shared/Release"),
        // The commit built, written by the plugin; only the executables import it (a commit then
        // relinks them and rebuilds nothing else).
        .target(name: "BuildStamp", path: "Sources/Shared/BuildStamp", plugins: ["BuildStampPlugin"]),
        .plugin(name: "BuildStampPlugin", capability: .buildTool()),
        // Event loop, connections, request handlers, storage.
        .target(
            name: "Server",
            dependencies: [
                "Wire", "Release", "CommandLineParsing", "Crypto", "TLS", "Posix", "Imaging", "SQL", "SQLite", "PostgreSQL", "ClassExport",
                "JSON",
            ],
            // The GeoNames gazetteer and the built-in album photo pool (see README, attribution).
            resources: [.copy("Resources/places.csv"), .copy("Resources/AlbumPool")]
        ),
        // Connection, commands, presentation.
        .target(
            name: "Client",
            // SQLite: each Virtual Vacation is its own SQLite file on the client.
            dependencies: [
                "Wire", "Release", "CommandLineParsing", "Crypto", "TLS", "Posix", "Imaging", "SQL", "SQLite", "TerminalUI", "ClassExport",
                "JSON",
            ],
            resources: [.copy("Resources/Samples"), .copy("Resources/world-110m.geojson")]
        ),
        .executableTarget(name: "snapshare-server", dependencies: ["Server", "Release", "BuildStamp"]),
        .executableTarget(name: "snapshare", dependencies: ["Client", "Release", "BuildStamp"]),
        // The load generator: shares the protocol and TLS code with the client.
        .executableTarget(
            name: "snapshare-bench",
            dependencies: [
                "Client", "Release", "BuildStamp", "Wire", "CommandLineParsing", "Crypto", "TLS", "Posix", "Imaging", "TerminalUI", "JSON",
            ]),

        // libFuzzer harness for the frame and message decoders; see scripts/fuzz.sh.
        .executableTarget(name: "FuzzFrames", dependencies: ["Wire"]),

        // The golden vectors of docs/PROTOCOL.md (every message, every version served), for the tests
        // that hold the document to the codec and for scripts/print-vectors.sh, which prints them.
        .target(name: "ProtocolVectors", dependencies: ["Wire", "Crypto"]),
        .executableTarget(name: "protocol-vectors", dependencies: ["ProtocolVectors", "Wire"]),

        // Shared by the tests: temp directories, an in-process server, certificates, subprocesses.
        .target(
            name: "TestSupport",
            dependencies: [
                "Wire", "TLS", "Posix", "Imaging", "SQL", "SQLite", "PostgreSQL",
                "Server", "Client",
            ]),

        // CoreTests reads certificates with OpenSSL itself (DevCertificateAuthorityTests), to check what TLS made.
        .testTarget(
            name: "CoreTests",
            dependencies: [
                "Wire", "CommandLineParsing", "Crypto", "TLS", "Posix", "Imaging", "TerminalUI", "SQL", "SQLite", "PostgreSQL",
                "TestSupport", "ProtocolVectors", "COpenSSL", "JSON",
            ], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "Wire", "CommandLineParsing", "Crypto", "Posix", "Imaging", "SQL", "SQLite", "PostgreSQL", "TestSupport",
            ]),
        .testTarget(
            name: "ClientTests",
            dependencies: ["Client", "TerminalUI", "Wire", "CommandLineParsing", "Posix", "Imaging", "SQLite", "TestSupport"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["Server", "Client", "Wire", "CommandLineParsing", "Crypto", "TLS", "Posix", "Imaging", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
