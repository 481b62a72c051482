import Foundation
import Imaging
import TestSupport
import Testing

@testable import Server

@Suite("Directory photo provider")
struct DirectoryPhotoProviderTests {
    let folder = TemporaryDirectory("snapshare-photos")
    let png: [UInt8]
    let jpeg: [UInt8]

    init() throws {
        let image = RGBImage(width: 8, height: 6, color: RGBImage.Color(red: 200, green: 100, blue: 50))
        png = try ImageCodec.encodePNG(image)
        jpeg = try ImageCodec.encodeJPEG(image)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: folder.file(name))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func writeIndex(_ text: String) throws { try write("index.csv", Array(text.utf8)) }

    func search(_ provider: DirectoryPhotoProvider, _ latitude: Double, _ longitude: Double, page: Int = 1, perPage: Int = 21) async throws
        -> PhotoSearchPage
    {
        try await provider.search(latitude: latitude, longitude: longitude, page: page, perPage: perPage)
    }

    @Test("only photos within the search radius are found, nearest first")
    func radius() async throws {
        try write("diag.png", png)
        try write("trip/arb.jpg", jpeg)
        try write("ypsi.png", png)
        try write("paris.png", png)
        try writeIndex(
            """
            file,lat,lon,title,tags
            trip/arb.jpg,42.2780,-83.7380,Arboretum,Nature Walk
            diag.png,42.2768,-83.7382,"The Diag, in winter",campus snow geo:lat=42.2768
            ypsi.png,42.2411,-83.6130,Ypsilanti,
            paris.png,48.8566,2.3522,Notre-Dame,paris
            """)
        let provider = try DirectoryPhotoProvider(path: folder.path)
        #expect(provider.problems.isEmpty)
        let annArbor = try await search(provider, 42.2776, -83.7409)
        #expect(annArbor.photos.map(\.id) == ["diag.png", "trip/arb.jpg"])
        #expect(annArbor.total == 2 && annArbor.pages == 1)
        let diag = annArbor.photos[0]
        #expect(diag.title == "The Diag, in winter")
        #expect(diag.tags == "campus snow geo:lat=42.2768")
        #expect(diag.place.isEmpty)
        #expect(annArbor.photos[1].tags == "nature walk")
        #expect(try await search(provider, 48.8566, 2.3522).photos.map(\.title) == ["Notre-Dame"])
        #expect(try await search(provider, -48.9, -123.4).total == 0)
        // A wider radius reaches Ypsilanti, 11 km away.
        let wide = try DirectoryPhotoProvider(path: folder.path, searchRadiusKilometres: 15)
        #expect(try await search(wide, 42.2776, -83.7409).photos.map(\.id) == ["diag.png", "trip/arb.jpg", "ypsi.png"])
    }

    @Test("a photo's bytes come from its file, and only files of the index are served")
    func images() async throws {
        try write("a.png", png)
        try write("b.jpg", jpeg)
        try write("unlisted.png", png)
        try writeIndex("file,lat,lon,title,tags\na.png,10,10,A,\nb.jpg,10,10.001,B,\n")
        let provider = try DirectoryPhotoProvider(path: folder.path)
        let photos = try await search(provider, 10, 10).photos
        #expect(photos.count == 2)
        #expect(try await provider.fetchImage(photos[0]) == png)
        #expect(try await provider.fetchImage(photos[1]) == jpeg)
        for reference in ["unlisted.png", "../a.png", "/etc/passwd", "index.csv"] {
            let stranger = ProviderPhoto(id: reference, title: "", tags: "", place: "", latitude: 10, longitude: 10, reference: reference)
            await #expect(throws: ProviderError(.badResponse, "\(reference) is not a photo of the folder's index")) {
                try await provider.fetchImage(stranger)
            }
        }
        // Changed after startup: deleted, or swapped for a link out of the folder.
        try FileManager.default.removeItem(atPath: folder.file("a.png"))
        await #expect(throws: ProviderError.self) { try await provider.fetchImage(photos[0]) }
        let outside = TemporaryDirectory("snapshare-outside")
        try Data(png).write(to: URL(fileURLWithPath: outside.file("x.png")))
        try FileManager.default.createSymbolicLink(atPath: folder.file("a.png"), withDestinationPath: outside.file("x.png"))
        do {
            _ = try await provider.fetchImage(photos[0])
            Issue.record("a link out of the folder must not be followed")
        } catch {
            #expect(error.kind == .unavailable)
        }
    }

    @Test("bad rows are reported with their line and skipped; the good ones still work")
    func badRows() async throws {
        try write("good.png", png)
        try write("second.png", png)
        try write("notes.jpg", Array("just text".utf8))
        try write("big.png", png + [UInt8](repeating: 0, count: 2_000))
        let outside = TemporaryDirectory("snapshare-outside")
        try Data(png).write(to: URL(fileURLWithPath: outside.file("secret.png")))
        try FileManager.default.createSymbolicLink(atPath: folder.file("escape.png"), withDestinationPath: outside.file("secret.png"))
        try writeIndex(
            """
            file,lat,lon,title,tags
            good.png,1,1,Good,
            good.png,1,1,Again,
            lat.png,95,1,Too far north,
            lon.png,1,abc,Not a number,
            missing.png,1,1,Gone,
            ../secret.png,1,1,Up and out,
            /etc/passwd,1,1,Absolute,
            notes.jpg,1,1,Text,
            escape.png,1,1,Link,
            big.png,1,1,Too big,
            short.png,1
            second.png,1,1.001,Second,
            """)
        let provider = try DirectoryPhotoProvider(path: folder.path, maxImageBytes: 1_000)
        #expect(provider.photos.map(\.file) == ["good.png", "second.png"])
        #expect(
            provider.problems == [
                "index.csv line 3: good.png is listed again (first on line 2); the repeat is skipped",
                "index.csv line 4: lat '95' is not a number from -90 to 90",
                "index.csv line 5: lon 'abc' is not a number from -180 to 180",
                "index.csv line 6: missing.png does not exist",
                "index.csv line 7: ../secret.png reaches outside the photo folder (..)",
                "index.csv line 8: /etc/passwd is not relative to the photo folder",
                "index.csv line 9: notes.jpg is not a PNG or JPEG",
                "index.csv line 10: escape.png leads outside the photo folder (symbolic link)",
                "index.csv line 11: big.png is \(png.count + 2_000) bytes, over the limit of 1000",
                "index.csv line 12: expected 5 fields as in the header, found 2",
            ])
        #expect(try await search(provider, 1, 1).total == 2)
    }

    @Test("a missing folder, a missing index, a wrong header or no usable row stops the server with the reason")
    func unusableFolders() throws {
        #expect(throws: PhotoSourceError("photo folder /nonexistent/snapshare does not exist or cannot be reached")) {
            try DirectoryPhotoProvider(path: "/nonexistent/snapshare")
        }
        try write("plain.txt", Array("x".utf8))
        #expect(throws: PhotoSourceError("photo folder \(folder.file("plain.txt")) is not a folder")) {
            try DirectoryPhotoProvider(path: folder.file("plain.txt"))
        }
        #expect(
            throws: PhotoSourceError("photo folder \(folder.path) has no index.csv (a CSV file with the header file,lat,lon,title,tags)")
        ) {
            try DirectoryPhotoProvider(path: folder.path)
        }
        try writeIndex("")
        #expect(throws: PhotoSourceError.self) { try DirectoryPhotoProvider(path: folder.path) }
        try writeIndex("name,latitude,longitude\nx.png,1,1\n")
        do {
            _ = try DirectoryPhotoProvider(path: folder.path)
            Issue.record("a wrong header must be refused")
        } catch {
            #expect(error.message.contains("must start with the header file,lat,lon,title,tags"))
        }
        try writeIndex("file,lat,lon,title,tags\nmissing.png,1,1,,\n")
        do {
            _ = try DirectoryPhotoProvider(path: folder.path)
            Issue.record("an index without a usable row must be refused")
        } catch {
            #expect(error.message.hasSuffix("lists no usable photo: index.csv line 2: missing.png does not exist"))
        }
        try writeIndex("file,lat,lon\n\"unclosed.png,1,1\n")
        do {
            _ = try DirectoryPhotoProvider(path: folder.path)
            Issue.record("broken CSV must be refused")
        } catch {
            #expect(error.message.contains("is not valid CSV: line 2: a quoted field is never closed"))
        }
    }

    @Test("an index exported from a spreadsheet (byte order mark, CRLF, reordered and extra columns) is read")
    func spreadsheetExport() async throws {
        try write("a.png", png)
        try write("index.csv", [0xEF, 0xBB, 0xBF] + Array("Tags,File,Lon,Lat,Camera\r\nBeach Sun,a.png,-70.5,41.3,Nikon\r\n".utf8))
        let provider = try DirectoryPhotoProvider(path: folder.path)
        let photo = try #require(provider.photos.first)
        #expect(photo == DirectoryPhotoProvider.Photo(file: "a.png", latitude: 41.3, longitude: -70.5, title: "", tags: "beach sun"))
    }

    @Test("pages split the nearby photos without overlap, and stop at the 4,000-result cap")
    func paging() async throws {
        var index = "file,lat,lon,title,tags\n"
        for number in 0..<30 {
            try write("p\(number).png", png)
            index += "p\(number).png,10,\(10 + Double(number) * 0.0001),Photo \(number),\n"
        }
        try writeIndex(index)
        let provider = try DirectoryPhotoProvider(path: folder.path)
        var seen: [String] = []
        for page in 1...3 {
            let result = try await search(provider, 10, 10, page: page, perPage: 10)
            #expect(result.pages == 3 && result.total == 30)
            seen += result.photos.map(\.id)
        }
        #expect(seen == (0..<30).map { "p\($0).png" })
        #expect(try await search(provider, 10, 10, page: 4, perPage: 10).photos.isEmpty)
        await #expect(throws: ProviderError.self) { try await search(provider, 10, 10, page: 401, perPage: 10) }
    }
}
