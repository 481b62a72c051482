import CommandLineParsing
import Foundation
import TestSupport
import Testing

@testable import Server

@Suite("Photo source flags")
struct PhotoSourceTests {
    let key = "0123456789abcdef0123456789abcdef"

    /// The server configuration from command-line words, or the usage error's message.
    func configure(_ arguments: [String], environment: [String: String] = [:]) throws -> Result<ServerConfiguration, UsageError> {
        guard case .run(let parsed) = try CommandLineParser(root: ServerCommandLine.root).parse(arguments, environment: environment) else {
            Issue.record("expected a command to run")
            throw CancellationError()
        }
        do {
            return .success(try ServerCommandLine.configuration(parsed))
        } catch let error as UsageError {
            return .failure(error)
        }
    }

    @Test("builtin is the default; flickr and dir:PATH are read with their settings")
    func sources() throws {
        #expect(try configure([]).get().photoSource == .builtin)
        #expect(try configure(["--photos", "builtin"]).get().photoSource == .builtin)
        #expect(try configure(["--photos", "dir:./class photos"]).get().photoSource == .directory(path: "./class photos"))
        #expect(
            try configure(["--photos", "flickr", "--flickr-key", key]).get().photoSource
                == .flickr(key: key, endpoint: URL(string: "https://api.flickr.com/services/rest/")!))
        let fromEnvironment = try configure(
            ["--photos", "flickr", "--flickr-endpoint", "http://127.0.0.1:8080/services/rest/"],
            environment: ["SNAPSHARE_FLICKR_KEY": key]
        ).get()
        #expect(fromEnvironment.photoSource == .flickr(key: key, endpoint: URL(string: "http://127.0.0.1:8080/services/rest/")!))
        #expect(try configure(["--photo-radius", "12.5"]).get().photoSearchRadiusKilometres == 12.5)
        #expect(try configure([]).get().photoSearchRadiusKilometres == 5)
    }

    @Test("bad photo flags are usage errors that say what is expected")
    func badFlags() throws {
        let cases: [([String], String)] = [
            (["--photos", "picasa"], "--photos is builtin, flickr or dir:PATH (got 'picasa')"),
            (["--photos", "dir:"], "--photos dir:PATH needs a folder, e.g. dir:./class-photos"),
            (["--photos", "flickr"], "--photos flickr needs an API key: give --flickr-key KEY or set SNAPSHARE_FLICKR_KEY"),
            (
                ["--photos", "flickr", "--flickr-key", "abc def"],
                "the Flickr API key must be letters and digits only (a Flickr key is 32 hexadecimal digits)"
            ),
            (
                ["--photos", "flickr", "--flickr-key", key, "--flickr-endpoint", "http://api.flickr.com/services/rest/"],
                "--flickr-endpoint must use https (http only for 127.0.0.1 or localhost), so the API key is not sent in clear text"
            ),
            (
                ["--photos", "flickr", "--flickr-key", key, "--flickr-endpoint", "not a url"],
                "--flickr-endpoint must be a URL such as https://api.flickr.com/services/rest/ (no query)"
            ),
            (["--flickr-endpoint", "https://example.org/rest/"], "--flickr-endpoint goes with --photos flickr"),
            (["--photo-radius", "40"], "--photo-radius must be a number of kilometres from 0.1 to 32 (Flickr's limit)"),
            (["--photo-radius", "nan"], "--photo-radius must be a number of kilometres from 0.1 to 32 (Flickr's limit)"),
        ]
        for (arguments, message) in cases {
            switch try configure(arguments) {
            case .success: Issue.record("\(arguments) should be refused")
            case .failure(let error): #expect(error.message == message, "\(arguments)")
            }
        }
    }

    @Test("the Flickr key never shows when the source is printed, dumped or logged")
    func keyIsHidden() {
        let source = PhotoSource.flickr(key: key, endpoint: PhotoSource.defaultFlickrEndpoint)
        #expect(source.description == "flickr (https://api.flickr.com/services/rest/)")
        #expect(!String(reflecting: source).contains(key))
        var dumped = ""
        dump(source, to: &dumped)
        #expect(!dumped.contains(key))
        var configuration = ServerConfiguration()
        configuration.photoSource = source
        var dumpedConfiguration = ""
        dump(configuration, to: &dumpedConfiguration)
        #expect(!dumpedConfiguration.contains(key))
    }

    @Test("makeProvider builds the configured source, and refuses a folder that cannot work")
    func makeProvider() throws {
        let logger = Logger(level: .error)
        var configuration = ServerConfiguration()
        #expect(try configuration.photoSource.makeProvider(configuration.photoSettings, logger: logger).name == "builtin")
        configuration.photoSource = .flickr(key: key, endpoint: PhotoSource.defaultFlickrEndpoint)
        #expect(try configuration.photoSource.makeProvider(configuration.photoSettings, logger: logger).name == "flickr")
        configuration.photoSource = .directory(path: "/nonexistent/photos")
        #expect(throws: PhotoSourceError("photo folder /nonexistent/photos does not exist or cannot be reached")) {
            try configuration.photoSource.makeProvider(configuration.photoSettings, logger: logger)
        }
    }
}
