extension PhotoSource {
    /// What every photo source is built with.
    struct Settings: Sendable {
        /// Photos are searched within this distance of a pin, as Flickr's `radius`.
        var searchRadiusKilometres: Double
        /// How long a remote source may stay silent on one request before it counts as down.
        var requestTimeoutSeconds: Double
        /// The largest image a source may hand over.
        package var maxImageBytes: Int

        init(searchRadiusKilometres: Double = 5, requestTimeoutSeconds: Double = 15, maxImageBytes: Int) {
            self.searchRadiusKilometres = searchRadiusKilometres
            self.requestTimeoutSeconds = requestTimeoutSeconds
            self.maxImageBytes = maxImageBytes
        }
    }

    /// Builds this photo source. The built-in source loads its bundled files, the folder source
    /// reads and checks its index (bad rows are logged as warnings and skipped), and a Flickr
    /// source is only configured here (it makes no request until the first album). Throws, and
    /// the server must not start, when the source cannot work at all.
    func makeProvider(_ settings: Settings, logger: Logger) throws(PhotoSourceError) -> any PhotoProvider {
        switch self {
        case .builtin:
            return try BuiltinPhotoProvider.bundled(searchRadiusKilometres: settings.searchRadiusKilometres)
        case .flickr(let key, let endpoint):
            return FlickrPhotoProvider(
                apiKey: key, endpoint: endpoint, searchRadiusKilometres: settings.searchRadiusKilometres,
                timeoutSeconds: settings.requestTimeoutSeconds, maxImageBytes: settings.maxImageBytes)
        case .directory(let path):
            let provider = try DirectoryPhotoProvider(
                path: path, searchRadiusKilometres: settings.searchRadiusKilometres, maxImageBytes: settings.maxImageBytes)
            for problem in provider.problems { logger.warning("photo folder \(path): \(problem)") }
            logger.info("photo folder \(path): \(provider.photos.count) photo\(provider.photos.count == 1 ? "" : "s") indexed")
            return provider
        }
    }
}
