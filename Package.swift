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
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Linux calls the Glibc module leaves out: epoll, eventfd, accept4, ioctl(TIOCGWINSZ).
        .target(name: "CLinux"),
        // PNG and JPEG decode/encode from memory. libjpeg reports errors with longjmp, which
        // Swift cannot catch, so the whole codec call lives in C.
        .target(
            name: "CImageCodec",
            linkerSettings: [.linkedLibrary("png"), .linkedLibrary("jpeg"), .linkedLibrary("z")]
        ),

        // Bytes, frames, messages, TLS, images: no SQLite, no terminal.
        .target(name: "Shared", dependencies: ["COpenSSL", "CLinux", "CImageCodec"]),
        // The one SQLite layer: connections, cached statements read by column name, transactions
        // and savepoints, blobs, background WAL checkpoints. Used by the server's store and the
        // client's vacation files.
        .target(name: "SQLite", dependencies: ["CSQLite", "Shared"]),
        // Event loop, connections, request handlers, storage.
        .target(
            name: "Server",
            dependencies: ["Shared", "SQLite", "COpenSSL", "CLinux"],
            // The GeoNames gazetteer and the built-in album photo pool (see README, attribution).
            resources: [.copy("Resources/places.csv"), .copy("Resources/AlbumPool")]
        ),
        // Connection, commands, presentation.
        .target(
            name: "Client",
            // SQLite: each Virtual Vacation is its own SQLite file on the client.
            dependencies: ["Shared", "CLinux", "SQLite"],
            resources: [.copy("Resources/Samples"), .copy("Resources/world-110m.geojson")]
        ),
        .executableTarget(name: "snapshare-server", dependencies: ["Server"]),
        .executableTarget(name: "snapshare", dependencies: ["Client"]),
        // The load generator: shares the protocol and TLS code with the client.
        .executableTarget(name: "snapshare-bench", dependencies: ["Client", "Shared", "CLinux"]),

        // libFuzzer harness for the frame and message decoders; see scripts/fuzz.sh.
        .executableTarget(name: "FuzzFrames", dependencies: ["Shared"]),

        // Shared by the tests: temp directories, an in-process server, certificates, subprocesses.
        .target(name: "TestSupport", dependencies: ["Shared", "Server", "Client"]),

        .testTarget(name: "SharedTests", dependencies: ["Shared", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ServerTests", dependencies: ["Server", "Shared", "SQLite", "TestSupport"]),
        .testTarget(name: "ClientTests", dependencies: ["Client", "Shared", "SQLite", "TestSupport"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["Server", "Client", "Shared", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
