
extension ServerConfiguration {
    /// Builds the configured photo source. The built-in source loads its bundled files, the
    /// folder source reads and checks its index (bad rows are logged as warnings and skipped),
    /// and a Flickr source is only configured here (it makes no request until the first
    /// album). Throws, and the server must not start, when the source cannot work at all.
    public func makeProvider(logger: Logger) throws(PhotoSourceError) -> any PhotoProvider {
        switch photoSource {
        case .builtin:
            return try BuiltinPhotoProvider.bundled(searchRadiusKilometres: photoSearchRadiusKilometres)
        case .flickr(let key, let endpoint):
            return FlickrPhotoProvider(
                apiKey: key, endpoint: endpoint, searchRadiusKilometres: photoSearchRadiusKilometres,
                timeoutSeconds: photoRequestTimeoutSeconds, maxImageBytes: maxImageBytes)
        case .directory(let path):
            let provider = try DirectoryPhotoProvider(
                path: path, searchRadiusKilometres: photoSearchRadiusKilometres, maxImageBytes: maxImageBytes)
            for problem in provider.problems { logger.warning("photo folder \(path): \(problem)") }
            logger.info("photo folder \(path): \(provider.photos.count) photo\(provider.photos.count == 1 ? "" : "s") indexed")
            return provider
        }
    }
}
