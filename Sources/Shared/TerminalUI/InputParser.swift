/// Turns the bytes a terminal sends in raw mode into `InputEvent`s: UTF-8 text, control keys,
/// CSI and SS3 key sequences with xterm modifiers, SGR (1006) mouse reports, bracketed paste, and
/// the terminal's replies to questions (control strings and unknown CSIs come out as `.unknown`).
///
/// Bytes may arrive in any pieces; a sequence cut between two reads waits for the rest. Escape
/// alone is ambiguous (the Escape key, or the start of a sequence), so a caller that sees
/// `isWaiting` after a read waits a short while for more and then calls `flush()`. Every buffer is
/// bounded: a sequence longer than `maximumSequence` is reported as `.unknown`, and a paste is
/// delivered in pieces of at most `maximumPaste` bytes.
public struct InputParser: Sendable {
    public static let maximumSequence = 64
    /// The longest terminal reply in a control string (a version, a colour) taken as one.
    public static let maximumControlString = 512
    public static let maximumPaste = 1 << 20

    private var pending: [UInt8] = []
    /// The paste so far, while between the paste's start and end markers.
    private var paste: [UInt8]?

    public init() {}

    /// True when bytes wait for more to become an event.
    public var isWaiting: Bool { !pending.isEmpty && paste == nil }

    /// The events `bytes` complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        return drain(final: false)
    }

    /// The events of what is waiting, taking no more bytes to come: a lone ESC is the Escape
    /// key, an unfinished sequence is unknown. A paste in progress hands over what it has.
    public mutating func flush() -> [InputEvent] {
        drain(final: true)
    }

    // MARK: Parsing

    private static let pasteStart: [UInt8] = Array("200".utf8)
    private static let pasteEnd: [UInt8] = [0x1B] + Array("[201~".utf8)

    private mutating func drain(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var index = 0
        while index < pending.count {
            if paste != nil {
                index = takePaste(from: index, final: final, into: &events)
                if paste != nil { break }
                continue
            }
            guard let (event, consumed) = parse(at: index, final: final) else { break }
            if let event { events.append(event) }
            index += consumed
        }
        pending.removeFirst(index)
        return events
    }

    /// Moves paste bytes from `pending[start...]`; returns the index after what it took.
    private mutating func takePaste(from start: Int, final: Bool, into events: inout [InputEvent]) -> Int {
        let end = Self.pasteEnd
        if let marker = pending[start...].firstRange(of: end) {
            paste!.append(contentsOf: pending[start..<marker.lowerBound])
            events.append(.paste(Self.text(paste!)))
            paste = nil
            return marker.upperBound
        }
        // Keep back what could be the start of the end marker.
        var keep = 0
        for length in stride(from: min(end.count - 1, pending.count - start), through: 1, by: -1)
        where pending[(pending.count - length)...].elementsEqual(end[..<length]) {
            keep = length
            break
        }
        let taken = pending.count - keep
        paste!.append(contentsOf: pending[start..<taken])
        if paste!.count >= Self.maximumPaste || (final && !paste!.isEmpty) {
            events.append(.paste(Self.text(paste!)))
            paste = []
        }
        return taken
    }

    /// Pasted bytes as text, with CR LF and CR as LF (terminals send a pasted line end as CR).
    private static func text(_ bytes: [UInt8]) -> String {
        var lines: [UInt8] = []
        lines.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0A, index > 0, bytes[index - 1] == 0x0D { continue }
            lines.append(byte == 0x0D ? 0x0A : byte)
        }
        return String(decoding: lines, as: UTF8.self)
    }

    /// One event at `start` and how many bytes it took (the event is nil for a paste's start
    /// marker); nil when the bytes there are an unfinished sequence and more may come.
    private mutating func parse(at start: Int, final: Bool) -> (InputEvent?, Int)? {
        let byte = pending[start]
        let available = pending.count - start
        if byte == 0x1B {
            guard available > 1 else { return final ? (.key(.escape), 1) : nil }
            switch pending[start + 1] {
            case UInt8(ascii: "["):
                return csi(at: start, final: final)
            case UInt8(ascii: "O"):
                guard available > 2 else { return final ? (.key(.character("O"), .alt), 2) : nil }
                let key = Self.finalKey(pending[start + 2])
                return (key.map { .key($0) } ?? .unknown(Array(pending[start..<start + 3])), 3)
            case 0x1B:
                return (.key(.escape), 1)
            case UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "]"):
                if let string = controlString(at: start, final: final) { return string }
                guard final else { return nil }
                fallthrough
            default:
                // Alt with a key: ESC, then that key.
                guard let (event, consumed) = parse(at: start + 1, final: final) else { return nil }
                if case .key(let key, let modifiers)? = event { return (.key(key, modifiers.union(.alt)), consumed + 1) }
                return (event, consumed + 1)
            }
        }
        if let key = Self.controlKey(byte) { return (.key(key), 1) }
        return character(at: start, final: final)
    }

    private func character(at start: Int, final: Bool) -> (InputEvent?, Int)? {
        let lead = pending[start]
        let length: Int
        switch lead {
        case 0x20...0x7E: return (.key(.character(Character(Unicode.Scalar(lead)))), 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.unknown([lead]), 1)
        }
        guard pending.count - start >= length else {
            return final ? (.unknown(Array(pending[start...])), pending.count - start) : nil
        }
        let bytes = Array(pending[start..<start + length])
        guard let text = String(validating: bytes, as: UTF8.self), let character = text.first else {
            return (.unknown([lead]), 1)
        }
        return (.key(.character(character)), length)
    }

    /// A terminal's reply in a control string (DCS `ESC P`, APC `ESC _`, OSC `ESC ]`), up to its
    /// ST (`ESC \`) or BEL, as one unknown event for whoever asked. nil while unfinished, and when
    /// `final` finds nothing after the introducer (Alt with P, _ or ]).
    private func controlString(at start: Int, final: Bool) -> (InputEvent?, Int)? {
        var index = start + 2
        while index < pending.count {
            if pending[index] == 0x07 { return (.unknown(Array(pending[start...index])), index + 1 - start) }
            if pending[index] == 0x1B, index + 1 < pending.count, pending[index + 1] == UInt8(ascii: "\\") {
                return (.unknown(Array(pending[start...(index + 1)])), index + 2 - start)
            }
            if index - start >= Self.maximumControlString { return (.unknown(Array(pending[start..<index])), index - start) }
            index += 1
        }
        guard final, pending.count - start > 2 else { return nil }
        return (.unknown(Array(pending[start...])), pending.count - start)
    }

    /// A CSI sequence at `start` (ESC [ parameters intermediates final).
    private mutating func csi(at start: Int, final: Bool) -> (InputEvent?, Int)? {
        var index = start + 2
        while index < pending.count {
            let byte = pending[index]
            if (0x40...0x7E).contains(byte) { break }
            guard (0x20...0x3F).contains(byte) else {
                return (.unknown(Array(pending[start..<index])), index - start)
            }
            index += 1
            if index - start > Self.maximumSequence { return (.unknown(Array(pending[start..<index])), index - start) }
        }
        guard index < pending.count else {
            return final ? (.unknown(Array(pending[start...])), pending.count - start) : nil
        }
        let parameters = Array(pending[(start + 2)..<index])
        let finalByte = pending[index]
        let consumed = index + 1 - start
        let whole = Array(pending[start..<(index + 1)])
        if parameters == Self.pasteStart && finalByte == UInt8(ascii: "~") {
            paste = []
            return (nil, consumed)
        }
        return (Self.event(parameters: parameters, final: finalByte) ?? .unknown(whole), consumed)
    }

    private static func event(parameters: [UInt8], final: UInt8) -> InputEvent? {
        if parameters.first == UInt8(ascii: "<") {
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
            return mouse(numbers(parameters.dropFirst()), released: final == UInt8(ascii: "m"))
        }
        guard let values = numbers(parameters[...]) else { return nil }
        let modifiers = values.count > 1 ? Self.modifiers(values[1]) : []
        switch final {
        case UInt8(ascii: "~"):
            guard let key = tildeKey(values.first ?? 0) else { return nil }
            return .key(key, modifiers)
        case UInt8(ascii: "Z"):
            return .key(.backTab, modifiers)
        default:
            guard let key = finalKey(final) else { return nil }
            return .key(key, modifiers)
        }
    }

    /// Semicolon-separated decimal numbers (empty ones are 0); nil when anything else is there
    /// or a number is absurdly long.
    private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int]? {
        guard !bytes.isEmpty else { return [] }
        var values: [Int] = []
        for part in bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            guard part.count <= 6, part.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            values.append(part.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        return values
    }

    /// xterm's modifier parameter: 1 + a bit each for shift, alt, control (and meta, taken as alt).
    private static func modifiers(_ parameter: Int) -> Modifiers {
        guard parameter > 1 else { return [] }
        let bits = parameter - 1
        var modifiers: Modifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & 2 != 0 || bits & 8 != 0 { modifiers.insert(.alt) }
        if bits & 4 != 0 { modifiers.insert(.control) }
        return modifiers
    }

    private static func finalKey(_ byte: UInt8) -> Key? {
        switch byte {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
    }

    private static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23, 24: .function(number - 12)
        default: nil
        }
    }

    private static func controlKey(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x0D, 0x0A: .enter
        case 0x09: .tab
        case 0x7F, 0x08: .backspace
        case 0x00: .control(" ")
        case 0x01...0x1A: .control(Character(Unicode.Scalar(byte + 0x60)))
        case 0x1C: .control("\\")
        case 0x1D: .control("]")
        case 0x1E: .control("^")
        case 0x1F: .control("_")
        default: nil
        }
    }

    /// An SGR mouse report: `<button;column;row` with M (press, drag, wheel) or m (release).
    private static func mouse(_ values: [Int]?, released: Bool) -> InputEvent? {
        guard let values, values.count == 3, values[1] >= 1, values[2] >= 1 else { return nil }
        let code = values[0]
        var modifiers: Modifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let base = code & 3
        let button: MouseEvent.Button? =
            [MouseEvent.Button.left, .middle, .right].indices.contains(base)
            ? [MouseEvent.Button.left, .middle, .right][base] : nil
        let action: MouseEvent.Action
        if code & 64 != 0 {
            switch base {
            case 0: action = .wheelUp
            case 1: action = .wheelDown
            default: return nil
            }
        } else if code & 32 != 0 {
            action = button.map { .drag($0) } ?? .move
        } else {
            guard let button else { return nil }
            action = released ? .release(button) : .press(button)
        }
        return .mouse(MouseEvent(action: action, column: values[1] - 1, row: values[2] - 1, modifiers: modifiers))
    }
}
