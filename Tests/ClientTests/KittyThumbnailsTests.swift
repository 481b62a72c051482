import TerminalUI
import Testing

@testable import Client
@testable import Imaging

@Suite("Thumbnails through the kitty protocol, with ids")
struct KittyThumbnailsTests {
    static let cell = PixelSize(width: 8, height: 19)

    static func picture(_ width: Int = 160, _ height: Int = 120) -> PictureCells {
        PictureCells(RGBImage(width: width, height: height, color: .init(red: 200, green: 40, blue: 40)))
    }

    /// The kitty commands in `bytes`, each as its control keys (the part before `;` or ST).
    static func commands(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}_G").dropFirst().map { command in
            String(command.prefix { $0 != ";" && $0 != "\u{1B}" })
        }
    }

    @Test("first frame: each picture stored once under its id and placed; the same frame again sends nothing")
    func storedOnce() {
        let thumbnails = KittyThumbnails()
        let (a, b) = (Self.picture(), Self.picture(90, 160))
        let places = [
            KittyThumbnails.Placement(picture: a, area: Rect(x: 1, y: 3, width: 20, height: 6)),
            KittyThumbnails.Placement(picture: b, area: Rect(x: 23, y: 3, width: 20, height: 6)),
        ]
        let first = Self.commands(thumbnails.frame(places, cell: Self.cell, repainted: true))
        #expect(first.filter { $0.hasPrefix("a=t") }.count == 2)
        #expect(first.filter { $0.hasPrefix("a=p,i=1,") }.count == 1 && first.filter { $0.hasPrefix("a=p,i=2,") }.count == 1)
        #expect(!first.contains { $0.hasPrefix("a=d") }, "a repainted screen has no placements to take away")
        #expect(thumbnails.frame(places, cell: Self.cell, repainted: false).isEmpty)
    }

    @Test("a scroll takes the placements away and places them anew without sending pixels; a repaint places them again")
    func scrolled() {
        let thumbnails = KittyThumbnails()
        let a = Self.picture()
        _ = thumbnails.frame([.init(picture: a, area: Rect(x: 1, y: 3, width: 20, height: 6))], cell: Self.cell, repainted: true)
        let moved = Self.commands(
            thumbnails.frame([.init(picture: a, area: Rect(x: 1, y: 10, width: 20, height: 6))], cell: Self.cell, repainted: false))
        #expect(moved.first == "a=d,q=2")
        #expect(moved.dropFirst().allSatisfy { $0.hasPrefix("a=p,i=1,") } && moved.count == 2)
        let again = Self.commands(
            thumbnails.frame([.init(picture: a, area: Rect(x: 1, y: 10, width: 20, height: 6))], cell: Self.cell, repainted: true))
        #expect(again == again.filter { $0.hasPrefix("a=p,i=1,") } && again.count == 1)
        #expect(Self.commands(thumbnails.frame([], cell: Self.cell, repainted: false)) == ["a=d,q=2"], "none left on screen")
    }

    @Test("placed larger than stored: sent again under the same id; over capacity: the least recently placed is freed")
    func resizedAndEvicted() {
        let thumbnails = KittyThumbnails(capacity: 2)
        let (a, b, c) = (Self.picture(1600, 1200), Self.picture(), Self.picture())
        _ = thumbnails.frame([.init(picture: a, area: Rect(x: 0, y: 0, width: 10, height: 3))], cell: Self.cell, repainted: true)
        let larger = Self.commands(
            thumbnails.frame([.init(picture: a, area: Rect(x: 0, y: 0, width: 60, height: 20))], cell: Self.cell, repainted: false))
        #expect(larger.contains { $0.hasPrefix("a=t,f=100,q=2,i=1") })
        _ = thumbnails.frame([.init(picture: b, area: Rect(x: 0, y: 0, width: 10, height: 3))], cell: Self.cell, repainted: false)
        let third = Self.commands(
            thumbnails.frame([.init(picture: c, area: Rect(x: 0, y: 0, width: 10, height: 3))], cell: Self.cell, repainted: false))
        #expect(third.contains("a=d,d=I,i=1,q=2"), "a, placed longest ago, is freed")
        #expect(third.contains { $0.hasPrefix("a=t,f=100,q=2,i=3") })
    }
}
