import Foundation
import Imaging
import Posix
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// Photos from a folder of the instructor's own PNG and JPEG files (`--photos dir:PATH`), placed
/// on the map by an `index.csv` in that folder:
///
/// ```
/// file,lat,lon,title,tags
/// trip/IMG_0412.jpg,42.2808,-83.743,Diag in the snow,annarbor winter campus
/// ```
///
/// `file` is relative to the folder (subfolders allowed; absolute paths, `..` and symlinks that
/// lead outside the folder are refused); `title` and `tags` may be empty or left out as columns;
/// other columns are ignored. The index is read once at startup: rows that cannot be used (bad
/// numbers, missing or non-image files, repeats) are listed in `problems` and skipped, and a
/// folder or index that is missing or unreadable, or an index with no usable row, stops the
/// server with the reason. A search returns the photos within the radius of the point, nearest
/// first, paged like the other sources.
struct DirectoryPhotoProvider: PhotoProvider {
    package let name = "dir"

    /// One row of the index that passed every check.
    struct Photo: Sendable, Equatable {
        /// The path relative to the folder, as written in the index (and the photo's id).
        var file: String
        var latitude: Double
        var longitude: Double
        var title: String
        /// Normalised like Flickr's: lower-case, space-separated.
        var tags: String
    }

    /// The most bytes of `index.csv` read.
    static let maximumIndexBytes = 16 * 1024 * 1024
    /// Problems beyond this many are counted, not listed.
    static let maximumProblemsListed = 50

    /// The folder, with symlinks resolved.
    let folder: String
    let photos: [Photo]
    /// What was wrong with skipped rows, e.g. `index.csv line 7: lat 95 is outside -90...90`.
    let problems: [String]
    let searchRadiusKilometres: Double
    package let maxImageBytes: Int
    private let byFile: [String: Int]

    /// Reads and checks the folder's index; throws when the source cannot work at all.
    init(path: String, searchRadiusKilometres: Double = 5, maxImageBytes: Int = 5 * 1024 * 1024) throws(PhotoSourceError) {
        guard let resolved = FileSystem.resolvedPath(path) else {
            throw PhotoSourceError("photo folder \(path) does not exist or cannot be reached")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PhotoSourceError("photo folder \(path) is not a folder")
        }
        folder = resolved
        self.searchRadiusKilometres = max(0.1, min(32, searchRadiusKilometres))
        self.maxImageBytes = maxImageBytes

        let indexPath = resolved + "/index.csv"
        guard FileManager.default.fileExists(atPath: indexPath) else {
            throw PhotoSourceError("photo folder \(path) has no index.csv (a CSV file with the header file,lat,lon,title,tags)")
        }
        let bytes: [UInt8]
        switch Self.readFile(indexPath, maxBytes: Self.maximumIndexBytes) {
        case .success(let read): bytes = read
        case .failure(let reason): throw PhotoSourceError("\(indexPath) \(reason)")
        }
        let records: [CSVReader.Record]
        do {
            records = try CSVReader(maxFields: 64, maxFieldBytes: 4096).records(bytes)
        } catch {
            throw PhotoSourceError("\(indexPath) is not valid CSV: \(error)")
        }
        guard let header = records.first else {
            throw PhotoSourceError("\(indexPath) is empty; it needs the header file,lat,lon,title,tags")
        }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let fileColumn = columns.firstIndex(of: "file"), let latColumn = columns.firstIndex(of: "lat"),
            let lonColumn = columns.firstIndex(of: "lon")
        else {
            throw PhotoSourceError(
                "\(indexPath) must start with the header file,lat,lon,title,tags (found \(columns.joined(separator: ",")))")
        }
        let titleColumn = columns.firstIndex(of: "title")
        let tagsColumn = columns.firstIndex(of: "tags")

        var photos: [Photo] = []
        var problems: [String] = []
        var firstLine: [String: Int] = [:]
        for record in records.dropFirst() {
            func problem(_ text: String) { problems.append("index.csv line \(record.line): \(text)") }
            let fields = record.fields
            guard fields.count == columns.count else {
                problem("expected \(columns.count) fields as in the header, found \(fields.count)")
                continue
            }
            let file = fields[fileColumn].trimmingCharacters(in: .whitespaces)
            let latText = fields[latColumn].trimmingCharacters(in: .whitespaces)
            let lonText = fields[lonColumn].trimmingCharacters(in: .whitespaces)
            guard let latitude = Double(latText), latitude.isFinite, MapLimits.latitude.contains(latitude) else {
                problem("lat '\(latText)' is not a number from -90 to 90")
                continue
            }
            guard let longitude = Double(lonText), longitude.isFinite, MapLimits.longitude.contains(longitude) else {
                problem("lon '\(lonText)' is not a number from -180 to 180")
                continue
            }
            if let reason = Self.checkRelativePath(file) {
                problem(reason)
                continue
            }
            if let first = firstLine[file] {
                problem("\(file) is listed again (first on line \(first)); the repeat is skipped")
                continue
            }
            switch Self.checkImage(folder: resolved, file: file, maxBytes: maxImageBytes) {
            case .failure(let reason):
                problem(reason.description)
                continue
            case .success:
                break
            }
            firstLine[file] = record.line
            let title = titleColumn.map { String(fields[$0].trimmingCharacters(in: .whitespacesAndNewlines).prefix(500)) } ?? ""
            let tags = tagsColumn.map { PhotoTags.normalize(fields[$0]) } ?? ""
            photos.append(
                Photo(file: file, latitude: latitude, longitude: GreatCircle.normalizedLongitude(longitude), title: title, tags: tags))
        }
        if problems.count > Self.maximumProblemsListed {
            let more = problems.count - Self.maximumProblemsListed
            problems = Array(problems.prefix(Self.maximumProblemsListed)) + ["... and \(more) more problems in index.csv"]
        }
        guard !photos.isEmpty else {
            let detail = problems.isEmpty ? "it has no rows" : problems.prefix(5).joined(separator: "; ")
            throw PhotoSourceError("\(indexPath) lists no usable photo: \(detail)")
        }
        self.photos = photos
        self.problems = problems
        byFile = Dictionary(photos.enumerated().map { ($1.file, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: PhotoProvider

    /// The indexed photos within the radius of the point, nearest first. `perPage` is clamped
    /// to 1...250; a page past the last is empty; past the first 4,000 results it fails with
    /// `.pageOutOfRange`, as the other sources do.
    package func search(latitude: Double, longitude: Double, page: Int, perPage: Int) async throws(ProviderError) -> PhotoSearchPage {
        let (page, perPage) = PhotoSearchPage.clamped(page: page, perPage: perPage)
        guard latitude.isFinite, longitude.isFinite else {
            return PhotoSearchPage(page: page, pages: 0, perPage: perPage, total: 0, photos: [])
        }
        try PhotoSearchPage.checkWithinResultCap(page: page, perPage: perPage, source: "a search")
        let latitude = GreatCircle.clampedLatitude(latitude)
        let longitude = GreatCircle.normalizedLongitude(longitude)
        let near = photos.compactMap { photo -> (Photo, Double)? in
            let distance = GreatCircle.distanceKilometres(
                latitude: latitude, longitude: longitude, toLatitude: photo.latitude, toLongitude: photo.longitude)
            return distance <= searchRadiusKilometres ? (photo, distance) : nil
        }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.file < $1.0.file }
        let total = near.count
        let pages = (total + perPage - 1) / perPage
        let first = (page - 1) * perPage
        let slice = page <= pages ? near[first..<min(total, first + perPage)] : []
        return PhotoSearchPage(
            page: page, pages: pages, perPage: perPage, total: total,
            photos: slice.map { photo, _ in
                ProviderPhoto(
                    id: photo.file, title: photo.title, tags: photo.tags, place: "",
                    latitude: photo.latitude, longitude: photo.longitude, reference: photo.file)
            })
    }

    /// The bytes of an indexed file, checked again (it may have changed since startup).
    package func fetchImage(_ photo: ProviderPhoto) async throws(ProviderError) -> [UInt8] {
        guard byFile[photo.reference] != nil else {
            throw ProviderError(.badResponse, "\(photo.reference) is not a photo of the folder's index")
        }
        guard let path = Self.containedPath(folder: folder, file: photo.reference) else {
            throw ProviderError(.unavailable, "photo file \(photo.reference) is gone or now leads outside the photo folder")
        }
        let bytes: [UInt8]
        switch Self.readFile(path, maxBytes: maxImageBytes) {
        case .success(let read): bytes = read
        case .failure(let reason): throw ProviderError(.unavailable, "photo file \(photo.reference) \(reason)")
        }
        do {
            _ = try ImageHeader.parse(bytes)
        } catch {
            throw ProviderError(.badResponse, "photo file \(photo.reference) is not a PNG or JPEG (\(error))")
        }
        return bytes
    }

    // MARK: Files

    /// Why a path from the index is refused, or nil when it is a plain relative path.
    private static func checkRelativePath(_ file: String) -> String? {
        if file.isEmpty { return "the file name is empty" }
        if file.hasPrefix("/") || file.hasPrefix("~") { return "\(file) is not relative to the photo folder" }
        if file.utf8.contains(0) || file.contains("\\") { return "\(file) is not a usable file name" }
        if file.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." }) {
            return "\(file) reaches outside the photo folder (..)"
        }
        return nil
    }

    /// Checks that an indexed file exists inside the folder, is a regular file within the size
    /// limit, and starts like a PNG or JPEG.
    private static func checkImage(folder: String, file: String, maxBytes: Int) -> Result<Void, Reason> {
        guard let path = containedPath(folder: folder, file: file) else {
            return FileManager.default.fileExists(atPath: folder + "/" + file)
                ? .failure(Reason("\(file) leads outside the photo folder (symbolic link)"))
                : .failure(Reason("\(file) does not exist"))
        }
        // The header is within the first bytes (a JPEG's EXIF block can take up to 64 KB of them).
        switch readFile(path, maxBytes: maxBytes, prefix: 256 * 1024) {
        case .failure(let reason):
            return .failure(Reason("\(file) \(reason)"))
        case .success(let head):
            do {
                _ = try ImageHeader.parse(head)
                return .success(())
            } catch {
                return .failure(Reason("\(file) is not a PNG or JPEG"))
            }
        }
    }

    /// The real path of `folder/file` when it exists and stays inside `folder` after symlinks.
    private static func containedPath(folder: String, file: String) -> String? {
        let inside = folder.hasSuffix("/") ? folder : folder + "/"
        guard let real = FileSystem.resolvedPath(folder + "/" + file), real.hasPrefix(inside) else { return nil }
        return real
    }

    /// A reason a file cannot be used, in words.
    struct Reason: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads a regular file of at most `maxBytes` (checked before reading), or only its first
    /// `prefix` bytes.
    private static func readFile(_ path: String, maxBytes: Int, prefix: Int? = nil) -> Result<[UInt8], Reason> {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            return .failure(Reason("cannot be read"))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return .failure(Reason("is not a regular file")) }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxBytes else { return .failure(Reason("is \(size) bytes, over the limit of \(maxBytes)")) }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(Reason("cannot be opened (permissions?)")) }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: min(prefix ?? maxBytes, maxBytes) + (prefix == nil ? 1 : 0)) ?? Data()
            // The file may have grown since it was measured.
            guard prefix != nil || data.count <= maxBytes else { return .failure(Reason("is over the limit of \(maxBytes) bytes")) }
            return .success([UInt8](data))
        } catch {
            return .failure(Reason("cannot be read"))
        }
    }
}
