import Foundation

/// The kitty graphics protocol: a PNG sent in base64 chunks, shown at a cell or stored under an
/// id to be placed, moved and freed.
extension PictureEscapes {
    /// Kitty graphics protocol: a PNG, sent in base64 chunks of 4096 (a=T transmit and show,
    /// f=100 PNG, q=2 no replies, C=1 the cursor stays).
    public static func kitty(png: [UInt8], column: Int, row: Int, columns: Int, rows: Int) -> [UInt8] {
        Array(cursor(column: column, row: row).utf8) + kittyChunks(png: png, control: "a=T,f=100,q=2,C=1,c=\(columns),r=\(rows)")
    }

    /// Kitty: stores a PNG under image `id` (1 or more) without showing it; sending again under the
    /// same id replaces it.
    public static func kittyTransmit(png: [UInt8], id: Int) -> [UInt8] {
        kittyChunks(png: png, control: "a=t,f=100,q=2,i=\(id)")
    }

    /// Kitty: shows stored image `id` with its top left corner at a cell, scaled into `columns` x
    /// `rows` cells (placement 1 of that image: placing it again moves it).
    public static func kittyPlace(id: Int, column: Int, row: Int, columns: Int, rows: Int) -> [UInt8] {
        Array((cursor(column: column, row: row) + "\u{1B}_Ga=p,i=\(id),p=1,q=2,C=1,c=\(columns),r=\(rows)\u{1B}\\").utf8)
    }

    /// Kitty: frees stored image `id` and its placements.
    public static func kittyFree(id: Int) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }

    /// The PNG in base64 chunks of 4096, the first carrying `control`, each but the last `m=1`.
    private static func kittyChunks(png: [UInt8], control: String) -> [UInt8] {
        let encoded = Array(Data(png).base64EncodedString().utf8)
        var output: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(encoded.count, offset + 4096)
            let more = end < encoded.count ? 1 : 0
            let keys = offset == 0 ? "\(control),m=\(more)" : "m=\(more)"
            output += Array("\u{1B}_G\(keys);".utf8) + encoded[offset..<end] + Array("\u{1B}\\".utf8)
            offset = end
        } while offset < encoded.count
        return output
    }

    /// Removes every picture the kitty protocol placed (stored images keep their data).
    public static let kittyDeleteAll = Array("\u{1B}_Ga=d,q=2\u{1B}\\".utf8)
}
