import Foundation
import TerminalUI
import Testing

@Suite("Picture protocols")
struct PictureEscapeTests {
    @Test("kitty: the PNG in base64 chunks of 4096, the first saying what it is, every one but the last saying more follows")
    func kittyChunks() throws {
        let png = [UInt8](repeating: 0xAB, count: 7_000) // 9,336 base64 characters: three chunks
        let text = String(decoding: PictureEscapes.kitty(png: png, column: 2, row: 1, columns: 40, rows: 12), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[2;3H\u{1B}_Ga=T,f=100,q=2,C=1,c=40,r=12,m=1;"))
        let chunks = text.components(separatedBy: "\u{1B}_G").dropFirst()
        #expect(chunks.count == 3)
        #expect(chunks.map { $0.hasPrefix("m=0;") || $0.contains(",m=0;") } == [false, false, true])
        let payload = chunks.map { String($0.split(separator: ";", maxSplits: 1)[1].dropLast(2)) }.joined()
        #expect(Data(base64Encoded: payload).map { [UInt8]($0) } == png)
    }

    @Test("iTerm2: one OSC 1337 with the file's size and cells, ended by BEL")
    func itermInline() {
        let text = String(decoding: PictureEscapes.iterm(file: [1, 2, 3], column: 0, row: 0, columns: 10, rows: 5), as: UTF8.self)
        #expect(text == "\u{1B}[1;1H\u{1B}]1337;File=inline=1;size=3;width=10;height=5;preserveAspectRatio=1:AQID\u{07}")
    }

    @Test("kitty with ids: stored without showing, placed (placement 1) into a cell box, freed with its data")
    func kittyIDs() {
        let stored = String(decoding: PictureEscapes.kittyTransmit(png: [1, 2, 3], id: 7), as: UTF8.self)
        #expect(stored == "\u{1B}_Ga=t,f=100,q=2,i=7,m=0;AQID\u{1B}\\")
        let placed = String(decoding: PictureEscapes.kittyPlace(id: 7, column: 4, row: 2, columns: 20, rows: 6), as: UTF8.self)
        #expect(placed == "\u{1B}[3;5H\u{1B}_Ga=p,i=7,p=1,q=2,C=1,c=20,r=6\u{1B}\\")
        #expect(String(decoding: PictureEscapes.kittyFree(id: 7), as: UTF8.self) == "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
    }
}
