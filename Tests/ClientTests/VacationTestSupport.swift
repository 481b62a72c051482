import Imaging
import TestSupport

@testable import Client

/// Photos and vacations for the vacation tests: real SQLite files in a temporary state folder.
enum VacationTestSupport {
    /// A photo as a visit would copy it; the image bytes are a small real PNG.
    static func photo(
        _ id: UInt64, title: String = "", place: String = "", tags: String = "",
        origin: String = "127.0.0.1:7443"
    ) -> VisitedPhoto {
        VisitedPhoto(
            origin: origin, photoID: id, title: title, place: place, tags: tags, latitude: 42.28, longitude: -83.74,
            width: 4, height: 2, image: png, thumbnail: Array(png.prefix(24)))
    }

    /// A 4x2 PNG.
    static let png: [UInt8] = {
        var image = RGBImage(width: 4, height: 2, color: .white)
        for index in 0..<(4 * 2) { image[index % 4, index / 4] = RGBImage.Color(red: UInt8(index * 30), green: 90, blue: 200) }
        return try! ImageCodec.encodePNG(image)
    }()

    /// A library over a fresh state folder (kept alive by the returned directory).
    static func library() -> (VacationLibrary, TemporaryDirectory) {
        let home = TemporaryDirectory("snapshare-vacations")
        return (VacationLibrary(state: ClientState(directory: home.path)), home)
    }
}
